"""The donation form: the amount, currency and frequency the donor picks, checked by the
site; the card goes into Stripe.js's card field and from the browser to Stripe only.

The page's script sends the form with each step (``/donate/card/``); a form with mistakes
is answered ``invalid`` and the script sends it to ``/donate/``, which shows them. Stripe
is localstripe; tests/stripe_js.py does what Stripe.js does in the browser.
"""

from decimal import Decimal

import pytest
from pytest_django.asserts import assertContains

from donations.models import Donation
from donations.signing import reference_from_token
from payments import gateway
from tests.donations.paying import give, give_by_card, step
from tests.foundation.factories import UserFactory
from tests.stripe_js import ASKS_3DS, DECLINED, confirm_card_payment, confirm_card_setup

pytestmark = pytest.mark.django_db


def test_the_donate_page_is_linked_from_every_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/donate/"' in response.content
    page = client.get("/donate/")
    assert page.status_code == 200
    assert "the card goes straight to Stripe" in page.content.decode()


def test_a_preset_amount_paid_once_by_card_is_one_pending_gift_until_stripe_reports(
    client, fake_stripe
):
    status, answer = give_by_card(client)
    assert (status, answer["status"]) == (200, "succeeded")
    thanks, token = answer["next"].split("?gift=")
    assert thanks == "/donate/thanks/"
    donation = Donation.objects.get()
    assert reference_from_token(token) == str(donation.reference)
    assert (donation.amount, donation.currency, donation.frequency) == (
        Decimal("25"),
        "EUR",
        "once",
    )
    # Money is recorded by Stripe's event, not by this answer.
    assert donation.status == Donation.Status.PENDING and not donation.gifts.exists()
    intent = gateway.client().v1.payment_intents.retrieve(donation.stripe_payment_intent_id)
    assert (intent.status, intent.amount, intent.currency) == ("succeeded", 2500, "eur")
    assert intent.metadata.to_dict() == {"donation": str(donation.reference)}
    assert intent.customer == donation.stripe_customer_id


def test_a_monthly_custom_gift_is_a_monthly_subscription(client, fake_stripe):
    fields = {
        "frequency": "monthly",
        "preset": "custom",
        "custom_amount": "12.50",
        "currency": "USD",
        "email": "ada@example.org",
    }
    assert give_by_card(client, **fields)[1]["status"] == "succeeded"
    donation = Donation.objects.get()
    assert (donation.frequency, donation.currency, donation.amount) == (
        "monthly",
        "USD",
        Decimal("12.50"),
    )
    stripe = gateway.client().v1
    subscription = stripe.subscriptions.retrieve(donation.stripe_subscription_id)
    assert subscription.status == "active"
    assert subscription.metadata.to_dict() == {"donation": str(donation.reference)}
    plan = subscription["items"]["data"][0]["plan"]
    assert (plan["amount"], plan["currency"], plan["interval"]) == (1250, "usd", "month")
    assert stripe.customers.retrieve(donation.stripe_customer_id).email == "ada@example.org"


@pytest.mark.parametrize("monthly", [False, True], ids=["once", "monthly"])
@pytest.mark.parametrize("authenticated", [True, False], ids=["confirmed", "refused"])
def test_3d_secure_pays_when_confirmed_and_keeps_nothing_when_refused(
    client, fake_stripe, monthly, authenticated
):
    fields = {"frequency": "monthly"} if monthly else {}
    status, answer = give_by_card(client, ASKS_3DS, authenticate=authenticated, **fields)
    if authenticated:
        assert answer["status"] == "succeeded"
        assert Donation.objects.get().frequency == ("monthly" if monthly else "once")
        return
    assert status == 402
    assert answer["error"].endswith("because authentication failed.")
    assert not Donation.objects.exists()


def test_refusing_3d_secure_for_the_payment_itself_keeps_nothing(client, fake_stripe):
    """Authenticated when the card was set up, refused when the gift is charged."""
    status, answer = step(client, "setup", {"frequency": "monthly"})
    setup = confirm_card_setup(answer["client_secret"], ASKS_3DS)
    status, answer = step(client, "pay", {"frequency": "monthly"}, setup_intent=setup["id"])
    assert answer["status"] == "requires_action"
    subscription = Donation.objects.get().stripe_subscription_id
    confirm_card_payment(answer["client_secret"], authenticate=False)
    status, answer = step(client, "check", {"frequency": "monthly"}, setup_intent=setup["id"])
    assert (status, answer["error"]) == (
        402,
        "The provided PaymentMethod has failed authentication. Nothing was taken.",
    )
    assert not Donation.objects.exists()
    assert gateway.client().v1.subscriptions.retrieve(subscription).status == "canceled"


def test_a_declined_card_is_refused_and_nothing_is_kept(client, fake_stripe):
    status, answer = give_by_card(client, DECLINED)
    assert (status, answer["error"]) == (402, "Your card was declined.")
    assert not Donation.objects.exists()


def test_the_pay_step_sent_twice_makes_one_gift_and_one_payment(client, fake_stripe):
    _status, answer = step(client, "setup", {})
    setup = confirm_card_setup(answer["client_secret"])
    first = step(client, "pay", {}, setup_intent=setup["id"])
    second = step(client, "pay", {}, setup_intent=setup["id"])

    def answered(response):
        # The thank-you link is signed with the time it is made: compare the gift it names.
        status, answer = response
        path, _, token = answer["next"].partition("?gift=")
        rest = {key: value for key, value in answer.items() if key != "next"}
        return status, rest, path, reference_from_token(token)

    assert answered(first) == answered(second)
    assert answered(first)[3] == str(Donation.objects.get().reference)
    donation = Donation.objects.get()
    intents = gateway.client().v1.payment_intents.list({"limit": 100}).data
    made = [intent.id for intent in intents if intent.customer == donation.stripe_customer_id]
    assert made == [donation.stripe_payment_intent_id]


def test_a_made_up_setup_intent_pays_nothing(client, fake_stripe):
    status, answer = step(client, "pay", {}, setup_intent="seti_made_up")
    assert status == 402 and answer["error"].endswith("Nothing was taken.")
    assert not Donation.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"preset": "custom", "custom_amount": "1"}, "The smallest gift we can take is 5.00."),
        ({"preset": "custom", "custom_amount": ""}, "Type the amount you would like to give."),
        ({"preset": "custom", "custom_amount": "50000"}, "please write to us"),
        ({"preset": "7"}, "Select a valid choice"),
        ({"currency": "GBP"}, "Select a valid choice"),
        ({"show_on_wall": "on", "public_name": " "}, "Type the name to show"),
        (
            {"preset": "25", "custom_amount": "42"},
            "You picked 25 and also typed 42 in “Another amount”. Nothing was charged",
        ),
    ],
)
def test_bad_amounts_are_explained_and_nothing_is_saved(client, settings, fields, message):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # nothing may be asked of Stripe
    assert step(client, "setup", fields) == (400, {"invalid": True})
    response = give(client, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Donation.objects.exists()


def test_a_typed_amount_equal_to_the_picked_preset_is_not_ambiguous(client, fake_stripe):
    give_by_card(client, preset="25", custom_amount="25.00")
    assert Donation.objects.get().amount == Decimal("25")


def test_a_valid_form_sent_without_the_script_charges_nothing_and_says_why(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    response = give(client)
    assertContains(response, "Nothing was charged: the card is typed into Stripe", status_code=400)
    assert not Donation.objects.exists()


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        (
            {"frequency": "monthly", "preset": "custom", "custom_amount": "42"},
            "Give €42 every month",
        ),
        ({"preset": "custom", "custom_amount": "12.5", "currency": "USD"}, "Give $12.50 once"),
        ({"preset": "custom", "custom_amount": ""}, "Give"),
        # Amounts the form refuses are never named as if they would be charged.
        ({"preset": "custom", "custom_amount": "4.5"}, "Give"),
        ({"preset": "custom", "custom_amount": "-5"}, "Give"),
        ({"preset": "custom", "custom_amount": "12.345"}, "Give"),
        ({"preset": "custom", "custom_amount": "20000"}, "Give"),
        ({"preset": "custom", "custom_amount": "1e30"}, "Give"),
    ],
)
def test_a_form_sent_back_states_amount_currency_and_frequency(client, fields, label):
    # An unticked wall name makes the form come back, so the button can be read.
    page = give(client, show_on_wall="on", public_name="", **fields)
    button = (
        '<button class="button" type="submit" data-give-button data-pay-button '
        f'aria-live="polite">{label}</button>'
    )
    assertContains(page, button, html=True, status_code=400)


def test_the_first_view_states_the_preset_amount(client):
    button = (
        '<button class="button" type="submit" data-give-button data-pay-button '
        'aria-live="polite">Give €25 once</button>'
    )
    assertContains(client.get("/donate/"), button, html=True)


def test_the_public_name_is_kept_only_when_the_donor_asks(client, fake_stripe):
    give_by_card(client, public_name="Ada L.")
    give_by_card(client, public_name="Grace H.", show_on_wall="on")
    names = dict(Donation.objects.values_list("public_name", "show_on_wall"))
    assert names == {"": False, "Grace H.": True}


def test_stripe_unreachable_gives_a_plain_message_and_changes_nothing(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    status, answer = step(client, "setup", {})
    assert status == 503
    assert answer["error"].startswith("Card payments cannot be taken right now")
    assert "Nothing was charged" in answer["error"]
    assert not Donation.objects.exists()


def test_a_signed_in_donor_is_remembered(client, fake_stripe):
    user = UserFactory()
    client.force_login(user)
    give_by_card(client)
    assert Donation.objects.get().user == user
