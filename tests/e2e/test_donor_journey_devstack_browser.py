"""The donor's journey on the system `make run` starts (tests/e2e/devstack.py): the donor
gives on /donate/, localstripe makes the payments and posts its own signed
events to /stripe/webhook/, and the Celery worker delivers the outbox (the cancellation of
the monthly gift, which localstripe answers with customer.subscription.deleted). She gives
once and monthly, sees each payment confirmed, downloads a receipt, cancels the monthly
gift on the site and finds the gift counted on /funding/. The screenshots, at 390 and
1280 px, are the ones docs/donations.md shows."""

import re
import time
from pathlib import Path

import pytest
from django.utils import timezone

from tests.e2e.cards import PAYS, type_card

pytestmark = pytest.mark.browser

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
WIDTHS = (390, 1280)
EMAIL = "ada.donor@example.org"  # no other journey on the shared stack uses it
WALL_NAME = "Ada L."


def shot(page, name, browser, *, refill=None):
    """docs/img/donate-<name>-<width>.png at 1280 px (the donor's own window) and at 390 px
    (the same address in a second, narrow window, where ``refill`` types the form again);
    nothing wider than the window. Resizing the donor's window instead would leave its
    next click on "Give" without effect in headless Chromium."""
    DOCS_IMG.mkdir(exist_ok=True)
    windows = [page]
    for width in WIDTHS:
        if width != page.viewport_size["width"]:
            narrow = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            narrow.goto(page.url)
            if refill:
                refill(narrow)
            windows.append(narrow)
    for window in windows:
        width = window.viewport_size["width"]
        assert window.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        window.screenshot(path=str(DOCS_IMG / f"donate-{name}-{width}.png"), full_page=True)
    for window in windows[1:]:
        window.context.close()


def reload_until(page, check, seconds=60):
    """What a donor does while Stripe's event is on its way: look again."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, page.locator("main").inner_text()
        page.wait_for_timeout(500)
        page.reload()


def heading(page) -> str:
    return page.get_by_role("heading", level=1).inner_text()


def donors_counted(page, base) -> int:
    page.goto(f"{base}/funding/")
    counted = re.search(r"(\d+) individual donors? gave in", page.locator("main").inner_text())
    return int(counted.group(1)) if counted else 0


def give(page, base, *, monthly, preset="", amount="", button):
    page.goto(f"{base}/donate/")
    assert page.get_by_text("the card goes straight to Stripe").is_visible()
    if monthly:
        page.get_by_label("Monthly").check()
    if preset:
        page.get_by_label(preset, exact=True).check()
    if amount:
        page.locator("[data-custom-amount]").fill(amount)
    page.get_by_label("E-mail for the receipt").fill(EMAIL)
    type_card(page, PAYS)  # the fake Stripe.js's card field
    if not monthly:
        page.get_by_label("Thank me by name on the public donor wall").check()
        page.get_by_label("Name to show").fill(WALL_NAME)
    return page.get_by_role("button", name=button)


def test_give_once_and_monthly_download_a_receipt_cancel_and_see_it_counted(devstack, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    base = devstack.url
    donors_before = donors_counted(page, base)

    # Once: €37.50 with the test card, confirmed by localstripe's own event.
    once = {"monthly": False, "amount": "37.50", "button": "Give €37.50 once"}
    give(page, base, **once)
    shot(page, "test-card", browser, refill=lambda narrow: give(narrow, base, **once))
    # Afresh: after a full-page shot, headless Chromium drops the window's next click.
    give(page, base, **once).click()
    page.wait_for_url("**/donate/thanks/?gift=*")
    reload_until(page, lambda: heading(page) == "Thank you for your gift")
    today = timezone.localdate()
    assert (
        f"Stripe has confirmed your payment of €37.50 on {today.day} {today:%B %Y}"
        in page.locator("main").inner_text()
    )
    shot(page, "thanks", browser)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the receipt (PDF)").click()
    assert download.value.suggested_filename.startswith("RCT-")  # the receipt number
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF-")

    # Monthly: €10 every month, then cancelled from the manage page.
    give(page, base, monthly=True, preset="10", button="Give €10 every month").click()
    page.wait_for_url("**/donate/thanks/?gift=*")
    reload_until(page, lambda: heading(page) == "Thank you for your gift")
    assert "this month's part of your monthly gift" in page.locator("main").inner_text()
    page.get_by_role("link", name="Manage your gift").click()
    facts = page.locator("dl.facts")
    assert "€10, monthly" in facts.inner_text()
    assert "Active (monthly)" in facts.inner_text()
    shot(page, "manage", browser)
    with page.expect_download() as download:
        # the link names the receipt by its number
        page.get_by_role("link", name=re.compile(r"^RCT-\d+ \(PDF\)")).click()
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF-")
    page.get_by_label("Yes, stop my monthly gift of €10").check()
    page.get_by_role("button", name="Cancel the monthly gift").click()
    assert page.get_by_text("Your monthly gift is being cancelled").is_visible()
    # The worker cancels the subscription in localstripe; its event marks the gift.
    reload_until(page, lambda: "Cancelled" in facts.inner_text(), seconds=90)
    assert page.get_by_role("button", name="Cancel the monthly gift").count() == 0
    assert "customer.subscription.deleted" in devstack.output("stripe")

    # The public funding page counts the donor and thanks her by the name she gave.
    assert donors_counted(page, base) == donors_before + 1
    assert WALL_NAME in page.locator(".donor-wall li").all_inner_texts()
    context.close()
