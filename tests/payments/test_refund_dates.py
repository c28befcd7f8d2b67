"""Issue 58, item 2: a refund or dispute is dated by its own time, bounded by its
payment's date and now. A signed event saying it happened in 2001, in 2100 or never is
counted on the payment's day, on the day it arrived, or between them, never in a year the
money was not there; one whose payment is not known yet counts nowhere, and is dated no
earlier than its payment once that arrives."""

import itertools
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from donations import ledger
from payments import recording
from payments.models import Dispute, Refund
from payments.validation import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from tests.donations import stripe_events
from tests.donations.factories import DonationFactory

pytestmark = pytest.mark.django_db
PAID_DAYS_AGO = 10
_fresh = itertools.count()


@pytest.fixture(autouse=True)
def _secret(settings):
    settings.STRIPE_WEBHOOK_SECRET = stripe_events.WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"


def post(client, payload) -> str:
    return stripe_events.post(client, payload).content.decode().strip()


def paid_gift(client, n):
    """A €50 one-off gift paid ten days ago by pi_{n} (charge ch_{n})."""
    donation = DonationFactory(amount=Decimal("50"))
    paid_at = int(time.time()) - PAID_DAYS_AGO * 86400
    payload = stripe_events.payment_intent_succeeded(
        donation,
        intent_id=f"pi_{n}",
        event_id=f"evt_pi_{n}",
        latest_charge=f"ch_{n}",
        created=paid_at,
    )
    assert post(client, payload) == "processed"
    return datetime.fromtimestamp(paid_at, tz=UTC)


def refund(n, occurred, amount=5000):
    payload = stripe_events.event(
        f"evt_refund_{n}",
        "charge.refunded",
        {
            "id": f"ch_{n}",
            "object": "charge",
            "payment_intent": f"pi_{n}",
            "amount": 5000,
            "amount_refunded": amount,
            "currency": "eur",
            "created": int(time.time()) - PAID_DAYS_AGO * 86400,  # the charge's: its payment's
        },
    )
    if occurred is None:
        del payload["created"]
    else:
        payload["created"] = occurred
    return payload


def dispute(n, created, status="lost"):
    return stripe_events.event(
        f"evt_dispute_{n}_{status}",
        "charge.dispute.closed",
        {
            "id": f"dp_{n}",
            "object": "dispute",
            "charge": f"ch_{n}",
            "payment_intent": f"pi_{n}",
            "amount": 5000,
            "currency": "eur",
            "status": status,
            "created": created,
        },
    )


def donors_income(year):
    return sum(
        (entry.amount for entry in ledger.entries(year) if entry.category == ledger.DONORS),
        Decimal(0),
    )


@pytest.mark.parametrize(
    "occurred, expected",
    [
        (1000000000, "paid"),  # September 2001: the reproducer
        (LATEST_TIMESTAMP, "now"),  # 9999
        (None, "now"),  # no date of its own: when it arrived
    ],
    ids=["2001", "9999", "no-date"],
)
def test_a_refund_with_a_hostile_date_is_counted_within_its_payment_and_now(
    client, occurred, expected
):
    paid_at = paid_gift(client, "r")
    before = timezone.now()
    assert post(client, refund("r", occurred)) == "processed"
    refunded_at = Refund.objects.get().refunded_at
    if expected == "paid":
        assert refunded_at == paid_at
    else:
        assert before - timedelta(seconds=5) <= refunded_at <= timezone.now()
    # the gift and its refund cancel out in the year they happened; 2001 counts nothing
    years = {timezone.localtime(paid_at).year, timezone.localtime(refunded_at).year}
    assert sum(donors_income(year) for year in years) == 0
    assert ledger.entries(2001) == []
    assert 2001 not in ledger.years_with_entries()


def test_a_refund_of_an_unknown_payment_is_dated_no_earlier_than_its_payment(client):
    assert post(client, refund("u", 1000000000)) == "processed"  # its payment not known yet
    assert ledger.entries(2001) == [] and 2001 not in ledger.years_with_entries()
    paid_at = paid_gift(client, "u")  # the payment arrives, ten days old
    refund_row = Refund.objects.get()
    assert (refund_row.payment.stripe_id, refund_row.refunded_at) == ("pi_u", paid_at)
    assert ledger.entries(2001) == [] and 2001 not in ledger.years_with_entries()


@pytest.mark.parametrize(
    "created, expected",
    [(EARLIEST_TIMESTAMP, "paid"), (None, "now")],
    ids=["2010", "no-date"],
)
def test_a_dispute_with_a_hostile_date_is_counted_within_its_payment_and_now(
    client, created, expected
):
    paid_at = paid_gift(client, "d")
    before = timezone.now()
    opened = recording.record_dispute(
        dispute_id="dp_d",
        charge_id="ch_d",
        payment_intent_id="pi_d",
        amount_minor=5000,
        currency="EUR",
        status="lost",
        opened_at=None if created is None else datetime.fromtimestamp(created, tz=UTC),
    )
    if expected == "paid":
        assert opened.opened_at == paid_at
    else:
        assert before - timedelta(seconds=5) <= opened.opened_at <= timezone.now()


def test_a_signed_dispute_dated_before_its_payment_is_counted_on_the_payments_day(client):
    paid_at = paid_gift(client, "e")
    assert post(client, dispute("e", EARLIEST_TIMESTAMP)) == "processed"
    assert Dispute.objects.get().opened_at == paid_at


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(occurred=st.none() | st.integers(min_value=0, max_value=LATEST_TIMESTAMP))
def test_whatever_date_a_refund_says_it_falls_between_its_payment_and_now(occurred):
    client = Client()
    n = f"h{next(_fresh)}"
    paid_at = paid_gift(client, n)
    assert post(client, refund(n, occurred)) == "processed"
    refunded_at = Refund.objects.get(stripe_charge_id=f"ch_{n}").refunded_at
    assert paid_at <= refunded_at <= timezone.now()
    if occurred is not None and paid_at.timestamp() <= occurred <= time.time() - 1:
        assert refunded_at == datetime.fromtimestamp(occurred, tz=UTC)  # a true date is kept
