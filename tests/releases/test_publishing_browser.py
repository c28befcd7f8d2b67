"""Staff publish a release in the admin, in Chromium; at that moment the release page,
/download/ and the announcement link all work (issue 33). Then a stable release with no
files yet: refused until staff tick "Publish without files", after which the pages say its
files are on their way. Screenshots at 390 and 1280 px go to test-artifacts/ (the ones in
docs/img/ are copies)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from releases.models import Release
from releases.repoconfig.models import Mirror
from tests.artifacts import ARTIFACTS
from tests.releases.archive_tree import build_archive, http_mirror
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)


def shoot(page, name):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"publishing-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def ok(response):
    assert response is not None and response.status == 200, response and response.url
    return response


def test_staff_publish_a_release_and_every_link_works_at_once(
    live_server, browser, tmp_path, settings, django_user_model
):
    ARTIFACTS.mkdir(exist_ok=True)
    settings.RELEASE_ARCHIVE_TIMEOUT = 2
    today = timezone.localdate()
    series = SeriesFactory(version="11.8", eol_date=today + timedelta(days=3 * 365))
    ReleaseFactory(series=series, version="11.8.9", release_date=today - timedelta(days=90))
    build_archive(tmp_path, "11.8.10")
    django_user_model.objects.create_superuser("staff", "staff@example.org", "staff-Passphrase-42")
    with http_mirror(tmp_path) as archive_url:
        settings.RELEASE_ARCHIVE_LOCATION = archive_url
        Mirror.objects.create(
            mirror_id="local", name="Local mirror", country="DE", base_url=archive_url
        )
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(live_server.url + "/admin/login/")
        page.fill("#id_username", "staff")
        page.fill("#id_password", "staff-Passphrase-42")
        page.click("input[type=submit]")

        # Step 1: version, date, maturity; the archive is read; one message says how it went.
        page.goto(live_server.url + "/admin/releases/release/")
        page.get_by_role("link", name="Publish a release").click()
        page.fill("#id_version", "11.8.10")
        page.fill("#id_release_date", today.isoformat())
        page.select_option("#id_maturity", "ga")
        page.get_by_role("button", name="Scan the archive and review").click()
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

        # At once: the release page, its announcement link, and /download/.
        visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        ok(visitor.goto(live_server.url + "/download/11.8/11.8.10/"))
        assert visitor.locator("table.file-table tbody tr").count() >= 4
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
        ok(visitor.goto(live_server.url + "/download/?series=11.8"))
        assert visitor.locator("h2", has_text="MariaDB 11.8.10").count() == 1
        assert visitor.locator("table.file-table tbody tr").count() >= 4

        # A stable release with no files yet: staff must choose to publish it without them.
        page.goto(live_server.url + "/admin/releases/release/publish/")
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
        assert "tick “Publish without files” to publish it now" in page.content()
        assert not Release.objects.get(version="11.8.11").is_published
        page.get_by_label("Publish without files").check()
        shoot(page, "review-without-files")
        page.get_by_role("button", name="Publish and announce").click()
        assert "on their way" in page.locator("ul.messagelist").inner_text()

        ok(visitor.goto(live_server.url + "/download/?series=11.8"))
        pending = visitor.locator("#files-pending")
        assert pending.inner_text().startswith("Files on their way. The files of MariaDB 11.8.11")
        shoot(visitor, "download-files-pending")
        ok(visitor.goto(live_server.url + "/download/11.8/11.8.11/"))
        assert visitor.locator("#files-pending").is_visible()
        with visitor.expect_navigation() as navigation:
            visitor.get_by_role("link", name="Read the announcement").click()
        ok(navigation.value)
