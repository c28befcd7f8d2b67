import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = {
    "download": "/download/",
    "download-windows": "/download/?series=11.4&release=11.4.2&os=windows",
    "series-index": "/download/series/",
    "series": "/download/10.1/",
    "release": "/download/11.4/11.4.2/",
    "release-lts": "/download/12.3/12.3.3/",
    "series-lts": "/download/12.3/",
    "repo-config": "/download/repo-config/?distro=ubuntu&release=noble&version=11.4&mirror=osuosl&arch=arm64",
}


# The elements that stick out on the right (deepest first), to name the culprit on failure.
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5))
  .slice(0, 3).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 60))"""


@pytest.fixture
def demo_catalogue():
    from releases import demo as releases_demo
    from releases.repoconfig import demo as repoconfig_demo

    releases_demo.load(log=lambda m: None)
    repoconfig_demo.load(log=lambda m: None)


def test_download_pages_reflow_on_phones_without_sideways_scrolling(
    live_server, browser, demo_catalogue
):
    # Both phone widths are steps of one test over one catalogue load (docs/testing.md).
    for width in (320, 390):
        check_reflow_at(live_server, browser, width)


def check_reflow_at(live_server, browser, width):
    from tests.artifacts import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        for name, url in PAGES.items():
            page.goto(live_server.url + url)
            scroll_width, inner_width = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            page.screenshot(path=str(ARTIFACTS / f"reflow-{name}-{width}.png"), full_page=True)
            assert scroll_width <= inner_width, (
                f"{url} is {scroll_width}px wide at {width}px: {page.evaluate(OVERFLOWING)}"
            )
        # The release page still offers every file's download link on a phone.
        page.goto(live_server.url + "/download/11.4/11.4.2/")
        link = page.get_by_role("link", name="Download mariadb-11.4.2-winx64.msi")
        assert link.is_visible()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"at {width}px: {box}"
    finally:
        context.close()


def test_api_docs_page_renders_from_local_assets(live_server, page, screenshot):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(live_server.url + "/api/docs/")
    page.get_by_text("/rest-api/mariadb/{release_id}/", exact=True).first.wait_for(timeout=15000)
    assert page.get_by_text("/api/repo-config", exact=True).first.is_visible()
    screenshot("api-docs")
    assert all(url.startswith(live_server.url) for url in requested), requested
