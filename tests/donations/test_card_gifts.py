"""Gifts by test card in fake mode, against localstripe, which sends its own events.

localstripe has no Checkout and no customer portal: the donate page takes the test card
and the site charges or subscribes it. localstripe then signs the events it emits
(payment_intent.succeeded, invoice.payment_succeeded, customer.subscription.deleted)
and POSTs them to the live server's webhook, about a second later; only those events
record money or end a gift.
"""

import time
from decimal import Decimal

import pytest
from django.core import mail

from donations import stripe_gateway
from donations.models import Donation, Gift
from donations.signing import manage_token, reference_from_token
from outbox.models import OutboxItem
from payments.gateway import client as stripe_client
from payments.models import StripeEvent
from tests.donations.factories import DonationFactory
from tests.localstripe import deliver_events
from tests.sponsors.helpers import WEBHOOK_SECRET

pytestmark = pytest.mark.django_db(transaction=True)

TEST_CARD = {
    "card-number": "4242 4242 4242 4242",
    "card-exp_month": "12",
    "card-exp_year": "2034",
    "card-cvc": "123",
}
ONCE = {
    "frequency": "once",
    "preset": "custom",
    "custom_amount": "37.50",
    "currency": "EUR",
    "email": "ada@example.org",
    **TEST_CARD,
}
MONTHLY = {**ONCE, "frequency": "monthly", "preset": "10", "custom_amount": ""}


@pytest.fixture
def localstripe_sends_events(settings, fake_stripe, live_server):
    """localstripe delivers its events to the live server, signed with the site's secret."""
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    deliver_events(fake_stripe, f"{live_server.url}/stripe/webhook/")
    yield fake_stripe
    deliver_events(fake_stripe, "http://127.0.0.1:9/stripe/webhook/")  # nobody, once done


def wait_for(find, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail("localstripe's event did not arrive or was not used")


def test_a_one_off_gift_by_test_card_is_recorded_from_localstripes_event(
    client, localstripe_sends_events
):
    response = client.post("/donate/", ONCE)
    donation = Donation.objects.get()
    assert response.status_code == 302
    # the token is signed with a timestamp (of the second the view ran, which may be
    # before the one this test is in): the one the view gave opens this donation
    thanks, gift = response["Location"].split("?gift=")
    assert thanks == "http://testserver/donate/thanks/"
    assert reference_from_token(gift) == str(donation.reference)
    intent = stripe_client().v1.payment_intents.retrieve(donation.stripe_payment_intent_id)
    assert (intent.status, intent.amount, intent.currency) == ("succeeded", 3750, "eur")
    assert intent.metadata.to_dict() == {"donation": str(donation.reference)}

    gift = wait_for(lambda: Gift.objects.filter(donation=donation).first())
    assert (gift.stripe_id, gift.amount, gift.currency) == (intent.id, Decimal("37.50"), "EUR")
    donation.refresh_from_db()
    assert donation.status == Donation.Status.PAID
    assert StripeEvent.objects.get(type="payment_intent.succeeded").outcome == "processed"
    [receipt] = wait_for(lambda: mail.outbox)  # sent after the event's commit
    assert receipt.to == ["ada@example.org"]
    assert "€37.50" in receipt.body


def test_a_monthly_gift_by_test_card_is_a_subscription_whose_invoice_records_it(
    client, localstripe_sends_events
):
    response = client.post("/donate/", MONTHLY)
    assert response.status_code == 302
    donation = Donation.objects.get()
    reference = {"donation": str(donation.reference)}
    stripe = stripe_client().v1
    subscription = stripe.subscriptions.retrieve(donation.stripe_subscription_id)
    assert subscription.metadata.to_dict() == reference
    assert subscription.customer == donation.stripe_customer_id
    plan = subscription["items"]["data"][0]["plan"]
    assert (plan["amount"], plan["currency"], plan["interval"]) == (1000, "eur", "month")
    customer = stripe.customers.retrieve(donation.stripe_customer_id)
    assert customer.email == "ada@example.org"

    gift = wait_for(lambda: Gift.objects.filter(donation=donation).first())
    assert gift.stripe_id.startswith("in_")
    assert (gift.amount, gift.currency) == (Decimal("10"), "EUR")
    donation.refresh_from_db()
    assert donation.status == Donation.Status.ACTIVE
    assert StripeEvent.objects.get(type="invoice.payment_succeeded").outcome == "processed"


def test_the_donor_cancels_a_monthly_gift_on_the_site_and_stripes_event_ends_it(
    client, localstripe_sends_events
):
    client.post("/donate/", MONTHLY)
    donation = Donation.objects.get()
    wait_for(lambda: Gift.objects.filter(donation=donation).exists())
    manage = f"/donate/manage/{manage_token(donation.reference)}/"

    response = client.post(manage, {"action": "cancel", "confirm": "yes"})
    assert response.status_code == 302
    assert "is being cancelled" in client.get(manage).content.decode()
    [call] = OutboxItem.objects.filter(kind=stripe_gateway.CANCEL_SUBSCRIPTION)
    assert call.status == OutboxItem.Status.DONE
    subscription = stripe_client().v1.subscriptions.retrieve(donation.stripe_subscription_id)
    assert subscription.status == "canceled"

    wait_for(lambda: Donation.objects.filter(pk=donation.pk, status="cancelled").exists())
    assert StripeEvent.objects.get(type="customer.subscription.deleted").outcome == "processed"
    assert client.get(manage).content.decode().count("Cancel the monthly gift") == 0


@pytest.mark.parametrize("monthly", [False, True])
def test_the_reference_in_the_metadata_is_enough_when_the_event_comes_first(
    localstripe_sends_events, monthly
):
    """The site never saved the Stripe ids (as if the event overtook Stripe's answer)."""
    donation = DonationFactory(
        stripe_checkout_session_id="",
        amount=Decimal("10"),
        frequency="monthly" if monthly else "once",
    )
    card = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2034, "cvc": "123"}
    gift = {
        "reference": str(donation.reference),
        "payment_method": stripe_gateway.card_payment_method(card),
        "amount": Decimal("10"),
        "currency": "EUR",
    }
    if monthly:
        stripe_gateway.subscribe_monthly(email="", **gift)
    else:
        stripe_gateway.charge_once(**gift)

    recorded = wait_for(lambda: Gift.objects.filter(donation=donation).first())
    assert recorded.amount == Decimal("10")
    donation.refresh_from_db()
    assert donation.status == ("active" if monthly else "paid")


def test_a_declined_test_card_is_explained_and_nothing_is_kept(client, fake_stripe):
    response = client.post("/donate/", {**ONCE, "card-number": "4000 0000 0000 0341"})
    assert response.status_code == 400
    assert "The payment did not go through" in response.content.decode()
    assert "Nothing was taken" in response.content.decode()
    assert not Donation.objects.exists()
