"""Issue 34: the money in correctly signed donation events. Refunds arriving out of order
keep Stripe's largest cumulative total; a refund in another currency or above its gift or
charge, a gift in a currency the site does not sell or without a date is rejected
(recorded and acknowledged), so the funding figures never go negative or grow a currency
of their own; a yen gift is recorded in yen."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
import time_machine

from donations import ledger
from donations.models import Gift
from payments.models import Refund, StripeEvent
from tests.donations import stripe_events
from tests.donations.factories import DonationFactory

pytestmark = pytest.mark.django_db
CREATED = 1773144000  # 2026-03-10, the day the gifts of tests.donations.stripe_events are made


@pytest.fixture(autouse=True)
def _in_2026():
    """These events happen in March 2026 and are received that June, whatever day the suite
    runs on: the refunds and the year the ledger is read for are the gifts' own."""
    with time_machine.travel(datetime(2026, 6, 1, 9, tzinfo=UTC)):
        yield


@pytest.fixture
def deliver(client, django_capture_on_commit_callbacks):
    def post(event, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return stripe_events.post(client, event, **kwargs)

    return post


def refund(event_id, refunded, *, charged=5000, currency="eur", created=CREATED):
    return stripe_events.event(
        event_id,
        "charge.refunded",
        {
            "id": "ch_1",
            "object": "charge",
            "payment_intent": "pi_donation_1",
            "customer": "cus_donor_1",
            "amount": charged,
            "amount_refunded": refunded,
            "currency": currency,
            "created": created,
        },
    )


def donor_income(year=2026):
    """What the funding ledger counts as donors' income, by currency."""
    totals = {}
    for entry in ledger.entries(year):
        if entry.category == ledger.DONORS:
            totals[entry.currency] = totals.get(entry.currency, Decimal(0)) + entry.amount
    return totals


@pytest.fixture
def gift(deliver):
    donation = DonationFactory(amount=Decimal("50"))
    assert deliver(stripe_events.payment_intent_succeeded(donation)).content == b"processed\n"
    return donation


def test_refunds_delivered_out_of_order_keep_the_larger_total(deliver, gift):
    # Stripe refunded 10, then 20 more: amount_refunded was 1000, then 3000.
    assert deliver(refund("evt_r2", 3000)).content == b"processed\n"
    assert deliver(refund("evt_r1", 1000)).content == b"processed\n"
    assert Refund.objects.get().amount == Decimal("30")
    assert donor_income() == {"EUR": Decimal("20")}


@pytest.mark.parametrize(
    "event, reason",
    [
        (refund("evt_r", 1000, currency="usd"), "it is in USD, the payment pi_donation_1 in EUR"),
        (refund("evt_r", 6000, charged=8000), "it would take back 6000 of the 5000 (EUR"),
        (refund("evt_r", 6000), "amount_refunded is more than the charge's amount"),
        (refund("evt_r", 0), "amount_refunded is not a positive amount"),
        (refund("evt_r", 1000, currency="xyz"), "XYZ is not a currency the site sells"),
        (refund("evt_r", 1000, created=None), "it does not say when it happened"),
    ],
    ids=["other-currency", "above-the-gift", "above-the-charge", "zero", "unsold", "no-date"],
)
def test_a_refund_the_gift_cannot_have_is_rejected(deliver, gift, event, reason):
    response = deliver(event)
    assert (response.status_code, response.content) == (200, b"rejected\n")
    assert not Refund.objects.exists()
    assert donor_income() == {"EUR": Decimal("50")}
    recorded = StripeEvent.objects.get(event_id="evt_r")
    assert recorded.outcome == "rejected"
    assert recorded.reason.startswith(reason)


def test_a_refund_in_another_currency_that_came_first_is_not_linked(deliver):
    assert deliver(refund("evt_r", 1000, currency="usd")).content == b"processed\n"
    donation = DonationFactory(amount=Decimal("50"))
    deliver(stripe_events.payment_intent_succeeded(donation))
    assert Refund.objects.get().payment is None
    assert donor_income() == {"EUR": Decimal("50")}


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"currency": "xyz"}, "XYZ is not a currency the site sells (EUR, USD)"),
        ({"amount_received": 0}, "the amount paid is not a positive amount"),
        ({"created": None}, "it does not say when it happened (no created)"),
    ],
)
def test_a_gift_the_site_does_not_sell_is_rejected(deliver, changes, reason):
    donation = DonationFactory()
    event = stripe_events.payment_intent_succeeded(donation, **changes)
    event["data"]["object"] = {k: v for k, v in event["data"]["object"].items() if v is not None}
    response = deliver(event)
    assert (response.status_code, response.content) == (200, b"rejected\n")
    assert not Gift.objects.exists()
    assert donor_income() == {}
    assert StripeEvent.objects.get().reason == reason


def test_a_yen_gift_is_recorded_in_yen(deliver, settings):
    settings.DONATION_CURRENCIES = ["EUR", "JPY"]
    donation = DonationFactory(amount=Decimal("5000"), currency="JPY")
    event = stripe_events.payment_intent_succeeded(donation, amount=5000, amount_received=5000)
    assert deliver(event).content == b"processed\n"
    assert (Gift.objects.get().amount, Gift.objects.get().currency) == (Decimal("5000"), "JPY")
    assert deliver(refund("evt_r", 2000, charged=5000, currency="jpy")).content == b"processed\n"
    assert Refund.objects.get().amount == Decimal("2000")
    assert donor_income() == {"JPY": Decimal("3000")}
