import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_foundation_pages_in_a_real_browser(live_server, page, screenshot):
    from foundation import demo

    demo.load(log=lambda m: None)
    for path, heading in [
        ("/about/board/", "Board of directors"),
        ("/about/governance/", "Governance"),
        ("/about/governance/bylaws/", "Bylaws"),
        (
            "/news/quarterly-update-from-the-foundations-board/",
            "Quarterly update from the foundation",
        ),
    ]:
        page.goto(live_server.url + path)
        assert page.locator("h1").first.inner_text().startswith(heading)
        screenshot("foundation" + path.rstrip("/").replace("/", "-"), full_page=True)
