"""The supporters page and the home page's strip in a real browser: each tier's marks
are sized by the tier (Platinum above Gold), and both reflow at 320 px in both schemes."""

import pytest

from sponsors import demo
from tests.artifacts import ARTIFACTS
from tests.donations.factories import GiftFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZE = "e => parseFloat(getComputedStyle(e).fontSize)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_platinum_marks_are_larger_than_gold_ones(live_server, browser, scheme):
    demo.load(lambda message: None)
    GiftFactory(donation__public_name="Grace H.", donation__show_on_wall=True)
    context = browser.new_context(viewport={"width": 320, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    for url, name in (("/supporters/", "supporters"), ("/", "home")):
        page.goto(live_server.url + url)
        platinum = page.locator(".wordmark", has_text="Alibaba Cloud").first.evaluate(SIZE)
        gold = page.locator(".wordmark", has_text="Visma").first.evaluate(SIZE)
        assert platinum > gold, url
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, url
        page.screenshot(path=str(ARTIFACTS / f"{name}-320-{scheme}.png"), full_page=True)
    page.goto(live_server.url + "/supporters/")
    assert page.get_by_text("Grace H.").is_visible()
    context.close()
