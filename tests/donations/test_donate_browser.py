"""A donation in a real browser, from the form to the thank-you page, with the card typed
into the card field of localstripe's Stripe.js (the fake at the network's edge; nothing
else is replaced). No events are delivered here, so the thank-you page says the payment
is processing; the journey with Stripe's events is tests/e2e/test_pay_paths_devstack_browser.py.
"""

from decimal import Decimal

import pytest
from django.utils import timezone

from donations.models import Donation
from payments import gateway
from sponsors import demo as sponsors_demo
from tests.artifacts import ARTIFACTS
from tests.donations.factories import ExpenseFactory
from tests.e2e.cards import PAYS, type_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stripe_js(settings, fake_stripe):
    settings.STRIPE_JS_URL = f"{fake_stripe}/js.stripe.com/v3/"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_monthly_gift_from_the_form_to_the_thank_you_page(live_server, browser, stripe_js, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Donate").first.click()
    page.wait_for_url("**/donate/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.get_by_role("button", name="Give €25 once").is_visible()
    page.get_by_label("Monthly").check()
    # An amount the form would refuse is not stated on the button.
    for refused in ("4.5", "20000", "12.345"):
        page.locator("[data-custom-amount]").fill(refused)
        assert page.locator("[data-give-button]").inner_text() == "Give", refused
    page.locator("[data-custom-amount]").fill("42")
    # Typing an amount chose it: the preset is no longer selected, and the button says so.
    assert page.get_by_label("25", exact=True).is_checked() is False
    assert page.locator('input[name="preset"][value="custom"]').is_checked()
    type_card(page, PAYS)
    page.get_by_role("button", name="Give €42 every month").click()
    page.wait_for_url("**/donate/thanks/**")
    # Stripe has sent no event here: the page thanks nobody yet.
    assert page.get_by_role("heading", level=1).inner_text() == "Your payment is processing"
    donation = Donation.objects.get()
    assert (donation.frequency, donation.amount) == ("monthly", 42)
    subscription = gateway.client().v1.subscriptions.retrieve(donation.stripe_subscription_id)
    plan = subscription["items"]["data"][0]["plan"]
    assert (plan["amount"], plan["currency"], plan["interval"]) == (4200, "eur", "month")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"donate-thanks-processing-{width}.png"), full_page=True)
    context.close()


def test_picking_a_preset_after_typing_clears_the_typed_amount(live_server, browser, stripe_js):
    context = browser.new_context(viewport={"width": 320, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/donate/")
    page.locator("[data-custom-amount]").fill("42")
    page.locator("#id_currency").select_option("USD")
    assert page.get_by_role("button", name="Give $42 once").is_visible()
    page.get_by_label("100", exact=True).check()
    assert page.locator("[data-custom-amount]").input_value() == ""
    type_card(page, PAYS)
    page.get_by_role("button", name="Give $100 once").click()
    page.wait_for_url("**/donate/thanks/**")
    intent = gateway.client().v1.payment_intents.retrieve(
        Donation.objects.get().stripe_payment_intent_id
    )
    assert (intent.amount, intent.currency, intent.status) == (10000, "usd", "succeeded")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_funding_page_reflows_on_a_phone(live_server, browser, scheme):
    sponsors_demo.load(log=lambda message: None)
    ExpenseFactory(spent_on=timezone.localdate(), amount=Decimal("1200"))
    context = browser.new_context(viewport={"width": 320, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server.url}/funding/")
    assert page.get_by_text("Demo data.").is_visible()
    assert page.locator("canvas[data-chart]").count() == 2  # income and spending
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(ARTIFACTS / f"funding-320-{scheme}.png"), full_page=True)
    context.close()
