"""Staff publish a release in the admin of the system `make run` starts
(tests/e2e/devstack.py), in Chromium; at that moment the release page, /download/ and the
announcement link all work (issue 33). Then a stable release with no files yet: refused
until staff tick "Publish without files", after which the pages say its files are on their
way. Staff also add a mirror of the archive and check it, so the pages link to it. The
stack reads its release archive from a port of its own (``archive_url``), where
this journey serves a generated archive. Screenshots at 390 and 1280 px go to
test-artifacts/ (the ones in docs/img/ are copies).

No other journey on the shared stack touches releases: the stack loads no release demo,
so staff add the series first, as they would for a new one."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.demo import DEMO_STAFF_PASSWORD, DEMO_STAFF_USERNAME
from tests.artifacts import ARTIFACTS
from tests.releases.archive_tree import build_archive, http_mirror

pytestmark = pytest.mark.browser

WIDTHS = (390, 1280)


def shoot(page, name):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"publishing-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def ok(response):
    assert response is not None and response.status == 200, response and response.url
    return response


def test_staff_publish_a_release_and_every_link_works_at_once(devstack, browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    base = devstack.url
    today = timezone.localdate()
    build_archive(tmp_path, "11.8.10")
    with http_mirror(tmp_path, port=devstack.archive_port):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(base + "/admin/login/")
        page.fill("#id_username", DEMO_STAFF_USERNAME)
        page.fill("#id_password", DEMO_STAFF_PASSWORD)
        page.click("input[type=submit]")

        # The series first: a release needs its series.
        page.goto(base + "/admin/releases/series/add/")
        page.fill("#id_version", "11.8")
        page.fill("#id_name", "MariaDB 11.8")
        page.fill("#id_eol_date", (today + timedelta(days=3 * 365)).isoformat())
        page.click("input[name=_save]")
        assert "was added successfully" in page.locator("ul.messagelist").inner_text()

        # Step 1: version, date, maturity; the archive is read; one message says how it went.
        page.goto(base + "/admin/releases/release/")
        page.get_by_role("link", name="Publish a release").click()
        page.fill("#id_version", "11.8.10")
        page.fill("#id_release_date", today.isoformat())
        page.select_option("#id_maturity", "ga")
        page.get_by_role("button", name="Scan the archive and review").click()
        page.wait_for_load_state()
        messages = page.locator("ul.messagelist li")
        assert messages.count() == 1
        assert (
            "files of mariadb-11.8.10/ recorded from the release archive" in messages.inner_text()
        )
        assert page.get_by_text("mariadb-11.8.10-winx64.msi").is_visible()
        assert page.get_by_text("Publish without files").count() == 0  # it has files
        shoot(page, "review")

        # Step 2: publish and announce.
        page.get_by_role("button", name="Publish and announce").click()
        assert (
            "MariaDB 11.8.10 is published and announced."
            in page.locator("ul.messagelist").inner_text()
        )

        # A mirror of the archive, checked now, so that the pages link to it.
        page.goto(base + "/admin/repoconfig/mirror/add/")
        page.fill("#id_mirror_id", "local")
        page.fill("#id_name", "Local mirror")
        page.fill("#id_country", "DE")
        page.fill("#id_base_url", devstack.archive_url)
        page.click("input[name=_save]")
        page.locator("#result_list tr", has_text="local").locator(
            "input[name=_selected_action]"
        ).check()
        page.select_option("select[name=action]", "check_now")
        page.click("button[name=index]")
        assert "1 mirrors checked, 1 usable." in page.locator("ul.messagelist").inner_text()

        # At once: the release page, its announcement link, and /download/.
        visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        ok(visitor.goto(base + "/download/11.8/11.8.10/"))
        assert visitor.locator("table.file-table tbody tr").count() >= 4
        assert visitor.get_by_role("link", name="Download mariadb-11.8.10-winx64.msi").count() == 1
        notes = visitor.get_by_role("link", name="MariaDB 11.8.10 release notes")
        assert (
            notes.get_attribute("href")
            == "https://mariadb.com/kb/en/mariadb-11-8-10-release-notes/"
        )
        shoot(visitor, "release-page")
        with visitor.expect_navigation() as navigation:
            visitor.get_by_role("link", name="Read the announcement").click()
        ok(navigation.value)
        assert visitor.locator("h1").inner_text() == "MariaDB 11.8.10 stable released"
        ok(visitor.goto(base + "/download/?series=11.8"))
        assert visitor.locator("h2", has_text="MariaDB 11.8.10").count() == 1
        assert visitor.locator("table.file-table tbody tr").count() >= 4

        # A stable release with no files yet: staff must choose to publish it without them.
        page.goto(base + "/admin/releases/release/publish/")
        page.fill("#id_version", "11.8.11")
        page.fill("#id_release_date", today.isoformat())
        page.get_by_role("button", name="Scan the archive and review").click()
        assert (
            page.locator("ul.messagelist li")
            .inner_text()
            .startswith(
                "The release archive has no mariadb-11.8.11/ directory yet, so no files were imported."
            )
        )
        page.get_by_role("button", name="Publish and announce").click()
        page.wait_for_load_state()
        assert "tick “Publish without files” to publish it now" in page.content()
        assert visitor.goto(base + "/download/11.8/11.8.11/").status == 404
        page.get_by_label("Publish without files").check()
        shoot(page, "review-without-files")
        page.get_by_role("button", name="Publish and announce").click()
        assert "on their way" in page.locator("ul.messagelist").inner_text()

        ok(visitor.goto(base + "/download/?series=11.8"))
        assert (
            "The files of MariaDB 11.8.11 are on their way to the mirrors: they are listed with"
            " their checksums as soon as they are recorded. Showing 11.8.10, the newest that has"
            " files." in visitor.inner_text("main")
        )
        shoot(visitor, "download-files-pending")
        ok(visitor.goto(base + "/download/11.8/11.8.11/"))
        pending = visitor.locator("#files-pending")
        assert pending.inner_text().startswith("Files on their way. The files of MariaDB 11.8.11")
        with visitor.expect_navigation() as navigation:
            visitor.get_by_role("link", name="Read the announcement").click()
        ok(navigation.value)
