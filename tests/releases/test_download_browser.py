from datetime import date

import pytest

from releases.repoconfig.models import Mirror
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WINDOWS_CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
                  "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")  # fmt: skip


def test_the_visitors_os_and_architecture_are_preselected_and_their_files_marked(
    live_server, browser
):
    from tests.artifacts import ARTIFACTS

    Mirror.objects.create(mirror_id="agdsn", name="AG DSN, TU Dresden", country="DE",
                          base_url="https://ftp.agdsn.de/pub/mirrors/mariadb/")  # fmt: skip
    release = ReleaseFactory(series=SeriesFactory(version="12.3", eol_date=date(2029, 6, 12)),
                             version="12.3.3", release_date=date(2026, 8, 24))  # fmt: skip
    ReleaseFileFactory(release=release, size=98_000_000)
    name = "mariadb-12.3.3-winx64.msi"
    ReleaseFileFactory(release=release, os="windows", architecture="x86_64", package_type="msi",
                       file_name=name, path=f"mariadb-12.3.3/winx64-packages/{name}")  # fmt: skip
    context = browser.new_context(viewport={"width": 320, "height": 800}, user_agent=WINDOWS_CHROME)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/download/")
        assert page.locator("#os").input_value() == "windows"
        assert page.locator("#arch").input_value() == "x86_64"
        suggested = page.locator("tr.is-suggested")
        assert suggested.count() == 1
        assert name in suggested.inner_text()
        assert "For this computer" in suggested.text_content()
        assert page.locator("tr:not(.is-suggested) .badge-suggested").first.is_hidden()
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= 320
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "download-preselected-320.png"), full_page=True)
        # A choice the visitor made is never overridden.
        page.goto(live_server.url + "/download/?os=source")
        assert page.locator("#os").input_value() == "source"
        assert page.locator("tr.is-suggested").count() == 0
    finally:
        context.close()
