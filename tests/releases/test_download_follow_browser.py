"""/download/ in Chromium: the dependent selects follow the series (from the data the page
carries, no request), the visitor's platform is preselected only when the release has a
file for it, and the page passes axe at 390 and 1280 px in light and dark."""

import pytest

from tests.artifacts import ARTIFACTS
from tests.e2e.page_audit import AXE_RUN, AXE_SOURCE, BLOCKING

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINUX_CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 "
                "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")  # fmt: skip


def values(page, select):
    return page.eval_on_selector_all(f"#{select} option", "options => options.map(o => o.value)")


def test_the_selects_follow_the_series_and_offer_only_what_has_a_file(
    live_server, browser, demo_like
):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, user_agent=LINUX_CHROME)
    page = context.new_page()
    requests = []
    try:
        page.goto(live_server.url + "/download/")
        status = page.locator("#choice-status")
        # 12.3.3 has no Linux file: Linux is neither offered nor preselected, and the page
        # says where the newest one is.
        assert page.locator("#release").input_value() == "12.3.3"
        assert page.locator("#os").input_value() == ""
        assert values(page, "os") == ["", "source", "windows"]
        assert "MariaDB 12.3.3 has no Linux (generic) x86_64 file for this computer" in (
            status.inner_text()
        )
        link = status.get_by_role("link", name="The newest release with one is 11.8.9.")
        assert "release=11.8.9" in link.get_attribute("href")

        page.on("request", lambda request: requests.append(request.url))
        page.select_option("#series", "11.8")
        assert page.locator("#release").input_value() == "11.8.9"
        assert values(page, "release") == ["11.8.9"]
        assert values(page, "os") == ["", "source", "linux"]
        assert values(page, "arch") == ["", "x86_64"]
        assert "Choose Show files to list the files of MariaDB 11.8.9." in status.inner_text()
        page.select_option("#os", "linux")
        page.select_option("#arch", "x86_64")
        assert values(page, "package") == ["", "bintar"]
        page.select_option("#package", "bintar")
        assert requests == []  # everything came with the page

        # Back to 12.3: Linux and its tarball are gone, and the page says so.
        page.select_option("#series", "12.3")
        assert page.locator("#release").input_value() == "12.3.3"
        assert page.locator("#os").input_value() == ""
        assert page.locator("#arch").input_value() == "x86_64"
        assert page.locator("#package").input_value() == ""
        text = status.inner_text()
        assert (
            "MariaDB 12.3.3 has no Linux (generic) file: Operating system is back to All." in text
        )
        assert "Package is back to All." in text

        page.select_option("#series", "11.8")
        page.select_option("#os", "linux")
        page.get_by_role("button", name="Show files").click()
        page.wait_for_url("**/download/?series=11.8*")
        assert page.locator("#ignored-choices").count() == 0  # a consistent choice
        assert "linux-systemd-x86_64.tar.gz" in page.locator(".file-table").inner_text()
        assert "winx64" not in page.locator(".file-table").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_download_page_passes_axe_in_both_schemes(live_server, browser, demo_like, width):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, user_agent=LINUX_CHROME)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/download/?series=11.8&release=11.8.10")
        page.select_option("#series", "12.3")  # the script's status line is shown too
        page.evaluate(AXE_SOURCE)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(ARTIFACTS / f"download-follow-{width}-{scheme}.png"),
                            full_page=True)  # fmt: skip
            found = [v for v in page.evaluate(AXE_RUN) if v["impact"] in BLOCKING]
            assert found == [], f"{scheme}: {found}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
