"""The four pay paths in a browser, on the system `make run` starts (tests/e2e/devstack.py):
a sponsorship paid once or yearly, a gift given once or monthly. The card is typed into
the card field of localstripe's Stripe.js and goes from the browser to the fake only;
every request the browser sends to the site is recorded, and none carries a card number.

On each path: 4000 0000 0000 0002 is declined on the same page with Stripe's message and
the form kept; 4000 0027 6000 3184 takes nothing when its 3-D Secure prompt is refused
(the page says so), and pays when it is confirmed; a double click on the button pays
once; 4242 4242 4242 4242 pays (the gifts pay with both cards, each sponsorship with one:
paying twice would need a second application). The sponsorship paid once is first
withdrawn and taken back (/sponsors/sponsorships/<id>/undo-cancel/). Stripe's own events
then mark each payment paid.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.artifacts import ARTIFACTS
from tests.e2e.cards import (
    ASKS_3DS,
    DECLINED,
    PAYS,
    SentToSite,
    answer_3ds,
    card_error,
    payments_of,
    stripe_list,
    type_card,
)
from tests.e2e.devstack import wait_until
from tests.e2e.test_sponsor_journeys_devstack_browser import apply_for_gold, sign_up

pytestmark = pytest.mark.browser

DOCS_IMG = ARTIFACTS / "docs-img"
REFUSED_3DS = "The provided PaymentMethod has failed authentication. Nothing was taken."


def pay_page_shots(context, url: str, name: str):
    """The pay page with a card typed, at 1280 and 390 px, light, in windows of their own
    (a full-page shot of the paying window would leave its next click without effect)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        window = context.new_page()
        window.set_viewport_size({"width": width, "height": 900})
        window.goto(url)
        type_card(window, PAYS)
        assert window.evaluate("document.documentElement.scrollWidth") <= width
        window.screenshot(path=str(DOCS_IMG / f"{name}-{width}.png"), full_page=True)
        window.close()


def refused_twice_on_the_same_page(page):
    """A declined card, then a refused 3-D Secure prompt: each said on the page, with the
    form kept and its button ready for another try."""
    url = page.url
    type_card(page, DECLINED)
    page.locator("[data-pay-button]").click()
    expect(card_error(page)).to_have_text("Your card was declined. Nothing was taken.")
    expect(page.locator("[data-pay-button]")).to_be_enabled()
    type_card(page, ASKS_3DS)
    page.locator("[data-pay-button]").click()
    answer_3ds(page, "Complete", "Fail")  # the card set up, the payment refused
    expect(card_error(page)).to_have_text(REFUSED_3DS)
    expect(page.locator("[data-pay-button]")).to_be_enabled()
    assert page.url == url


@pytest.mark.parametrize("method", ["card_once", "card_annual"])
def test_a_sponsorship_is_paid_by_card_in_stripes_field(devstack, browser, method):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    sent = SentToSite(context, devstack.url)
    page = context.new_page()
    who = "once" if method == "card_once" else "yearly"
    sign_up(devstack, page, f"cfo-{who}@paths.example")
    page.goto(devstack.url + "/sponsors/")
    apply_for_gold(page, f"Paths {who} Ltd", f"billing-{who}@paths.example", method)
    page.wait_for_url("**/pay/")
    pay_url = page.url
    sponsorship = re.search(r"/sponsorships/(\d+)/pay/", pay_url).group(1)

    if method == "card_once":
        pay_page_shots(context, pay_url, "sponsors-pay")
        # Withdrawn by mistake, then taken back: the application is payable again.
        page.goto(devstack.url + "/sponsors/dashboard/")
        page.get_by_role("link", name=f"Paths {who} Ltd").first.click()
        page.get_by_role("link", name="Withdraw this application…").click()
        page.get_by_role("button", name="Withdraw the application").click()
        assert "was withdrawn" in page.locator(".messages").inner_text()
        page.get_by_role("button", name="Undo the withdrawal").click()
        assert (
            "Your application is back, exactly as it was." in page.locator(".messages").inner_text()
        )
        page.goto(pay_url)

    refused_twice_on_the_same_page(page)
    # A double click: one payment (4242 pays at once; 3184 asks for 3-D Secure twice).
    type_card(page, PAYS if method == "card_once" else ASKS_3DS)
    page.locator("[data-pay-button]").dblclick()
    if method == "card_annual":
        answer_3ds(page, "Complete", "Complete")
    page.wait_for_url("**/sponsors/dashboard/")
    assert "Thank you: Stripe accepted the payment of €50,000" in page.inner_text(".messages")

    def paid():
        page.goto(devstack.url + "/sponsors/dashboard/")
        return re.search(r"Paid on \d+ \w+ \d{4}, thank you\.", page.inner_text("main"))

    wait_until(paid, what="Stripe's event marking the sponsorship paid")
    mine = [
        intent
        for intent in stripe_list(devstack, "payment_intents")
        if intent["status"] == "succeeded"
        and (
            intent["metadata"].get("sponsorship") == sponsorship
            or intent["customer"] in _customers_of(devstack, sponsorship)
        )
    ]
    assert len(mine) == 1
    sent.assert_no_card_number()
    context.close()


def _customers_of(stack, sponsorship: str) -> set[str]:
    """The customers of the sponsorship's subscriptions (their invoices' payments name the
    customer, not the sponsorship)."""
    return {
        subscription["customer"]
        for subscription in stripe_list(stack, "subscriptions")
        if subscription["metadata"].get("sponsorship") == sponsorship
    }


def give(page, base, *, monthly: bool, amount: str, card: str):
    page.goto(f"{base}/donate/")
    if monthly:
        page.get_by_label("Monthly").check()
    page.locator("[data-custom-amount]").fill(amount)
    page.get_by_label("E-mail for the receipt").fill("paths.donor@example.org")
    type_card(page, card)


@pytest.mark.parametrize("monthly", [False, True], ids=["once", "monthly"])
def test_a_gift_is_given_by_card_in_stripes_field(devstack, browser, monthly):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    sent = SentToSite(context, devstack.url)
    page = context.new_page()
    base = devstack.url
    first, second = ("12.34", "13.45") if monthly else ("23.45", "24.56")

    give(page, base, monthly=monthly, amount=first, card=PAYS)
    refused_twice_on_the_same_page(page)
    assert page.locator("[data-custom-amount]").input_value() == first  # the form kept

    # 4242, double-clicked: one gift, one payment.
    type_card(page, PAYS)
    page.locator("[data-pay-button]").dblclick()
    page.wait_for_url("**/donate/thanks/?gift=*")
    heading = page.get_by_role("heading", level=1)
    assert heading.inner_text() in ("Your payment is processing", "Thank you for your gift")

    def thanked():
        page.reload()
        return heading.inner_text() == "Thank you for your gift"

    wait_until(thanked, what="Stripe's event confirming the gift")
    assert len(payments_of(devstack, round(float(first) * 100))) == 1

    # 3184, with 3-D Secure confirmed.
    give(page, base, monthly=monthly, amount=second, card=ASKS_3DS)
    page.locator("[data-pay-button]").click()
    answer_3ds(page, "Complete", "Complete")
    page.wait_for_url("**/donate/thanks/?gift=*")
    wait_until(thanked, what="Stripe's event confirming the 3-D Secure gift")
    assert len(payments_of(devstack, round(float(second) * 100))) == 1
    sent.assert_no_card_number()
    context.close()
