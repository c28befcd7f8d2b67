"""Gifts by card against localstripe, which sends its own events.

The donate page's steps are sent as its script sends them, with the card confirmed as
Stripe.js confirms it (tests/donations/paying.py); the site charges or subscribes it.
localstripe then signs the events it emits (payment_intent.succeeded,
invoice.payment_succeeded, customer.subscription.deleted) and POSTs them to the live
server's webhook, about a second later; only those events record money or end a gift.
"""

import time
from decimal import Decimal

import pytest
from django.core import mail
from pytest_django.asserts import assertContains, assertNotContains

from donations import stripe_gateway
from donations.models import Donation, Gift
from donations.signing import manage_token, reference_from_token
from outbox.models import OutboxItem
from payments import gateway
from payments.gateway import client as stripe_client
from payments.models import StripeEvent
from tests.donations.factories import DonationFactory
from tests.donations.paying import give_by_card
from tests.localstripe import deliver_events
from tests.sponsors.helpers import WEBHOOK_SECRET
from tests.stripe_js import confirmed_card

pytestmark = pytest.mark.django_db(transaction=True)

ONCE = {
    "frequency": "once",
    "preset": "custom",
    "custom_amount": "37.50",
    "currency": "EUR",
    "email": "ada@example.org",
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
    _status, answer = give_by_card(client, **ONCE)
    donation = Donation.objects.get()
    # the token is signed with a timestamp (of the second the view ran, which may be
    # before the one this test is in): the one the view gave opens this donation
    thanks, gift = answer["next"].split("?gift=")
    assert thanks == "/donate/thanks/"
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
    assert give_by_card(client, **MONTHLY)[1]["status"] == "succeeded"
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
    give_by_card(client, **MONTHLY)
    donation = Donation.objects.get()
    wait_for(lambda: Gift.objects.filter(donation=donation).exists())
    manage = f"/donate/manage/{manage_token(donation.reference)}/"

    response = client.post(manage, {"action": "cancel", "confirm": "yes"})
    assert response.status_code == 302
    assert "is being cancelled" in client.get(manage).content.decode()
    [call] = OutboxItem.objects.filter(kind=gateway.CANCEL_SUBSCRIPTION)
    assert call.status == OutboxItem.Status.DONE
    subscription = stripe_client().v1.subscriptions.retrieve(donation.stripe_subscription_id)
    assert subscription.status == "canceled"

    wait_for(lambda: Donation.objects.filter(pk=donation.pk, status="cancelled").exists())
    assert StripeEvent.objects.get(type="customer.subscription.deleted").outcome == "processed"
    page = client.get(manage)
    assertContains(page, "<dt>Status</dt><dd>Cancelled</dd>", html=True)
    assertNotContains(page, "Cancel the monthly gift")
    assertNotContains(page, 'name="action" value="cancel"')
    # Stripe makes no further invoice for a deleted subscription: the one paid stays the one.
    invoices = stripe_client().v1.invoices.list({"subscription": subscription.id})
    assert [invoice.id for invoice in invoices.data] == [
        Gift.objects.get(donation=donation).stripe_id
    ]


@pytest.mark.parametrize("monthly", [False, True])
def test_the_reference_in_the_metadata_is_enough_when_the_event_comes_first(
    localstripe_sends_events, monthly
):
    """The site never saved the Stripe ids (as if the event overtook Stripe's answer)."""
    donation = DonationFactory(
        amount=Decimal("10"),
        frequency="monthly" if monthly else "once",
    )
    card = confirmed_card({"donation": str(donation.reference)})
    gateway.use_card(card)
    gift = {"reference": str(donation.reference), "card": card, "amount": Decimal("10")}
    if monthly:
        stripe_gateway.subscribe_monthly(currency="EUR", **gift)
    else:
        stripe_gateway.charge_once(currency="EUR", **gift)

    recorded = wait_for(lambda: Gift.objects.filter(donation=donation).first())
    assert recorded.amount == Decimal("10")
    donation.refresh_from_db()
    assert donation.status == ("active" if monthly else "paid")
