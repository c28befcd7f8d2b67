"""Issue 58, item 1: the same money is counted once. An invoice, the payment intent that
paid it and its charge are one payment, whichever signed events report them and in
whatever order, repeated or not: one payment, one term bought, one receipt. A one-off gift
accepts one payment; a second, different one is rejected and recorded for staff."""

import itertools
import time
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from donations.models import Gift
from invoicing.models import IssuedDocument
from payments import recording
from payments.models import Payment, StripeEvent
from sponsors.models import PaidTerm, Sponsorship
from sponsors.services import applications, lifecycle
from sponsors.services import recording as sponsor_recording
from tests.donations import stripe_events as donation_events
from tests.donations.factories import DonationFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import WEBHOOK_SECRET, event, signed

pytestmark = pytest.mark.django_db
PRICE = 5_000_000  # EUR 50,000 in cents, the factories' tier
_fresh = itertools.count()


@pytest.fixture(autouse=True)
def _secret(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"


def post(client, payload, secret=WEBHOOK_SECRET) -> str:
    body, header = signed(payload, secret)
    answer = client.post(
        "/stripe/webhook/", body, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )
    assert answer.status_code == 200, answer.content
    return answer.content.decode().strip()


def running_sponsorship() -> Sponsorship:
    """A sponsorship paid by card and approved: one term, running from today."""
    number = next(_fresh)
    sponsorship = applications.apply(
        OrganisationFactory(name=f"Once {number}"), TierFactory(), "card_once", None
    )
    sponsor_recording.record_payment(
        sponsorship.pk,
        stripe_id=f"pi_first_{number}",
        payment_intent_id=f"pi_first_{number}",
        amount_minor=PRICE,
        currency="EUR",
        paid_at=timezone.now(),
    )
    lifecycle.approve(sponsorship, None)
    return Sponsorship.objects.get(pk=sponsorship.pk)


def renewal_reports(sponsorship: Sponsorship, n: int) -> dict[str, dict]:
    """Every event Stripe may send about one renewal's charge ch_S{n}: its invoice paid
    (in both event types), its payment intent succeeded as newer API versions send it (no
    invoice field, its latest charge) and as older ones do (naming the invoice)."""
    metadata = {"sponsorship": str(sponsorship.pk)}
    now = int(time.time())
    invoice = {
        "id": f"in_S{n}",
        "object": "invoice",
        "payment_intent": f"pi_S{n}",
        "charge": f"ch_S{n}",
        "amount_paid": PRICE,
        "currency": "eur",
        "created": now,
        "metadata": metadata,
    }
    intent = {
        "id": f"pi_S{n}",
        "object": "payment_intent",
        "latest_charge": f"ch_S{n}",
        "amount_received": PRICE,
        "currency": "eur",
        "created": now,
        "metadata": metadata,
    }
    return {
        "invoice.paid": event(f"evt_paid_{n}", "invoice.paid", invoice),
        "invoice.payment_succeeded": event(
            f"evt_succeeded_{n}", "invoice.payment_succeeded", invoice
        ),
        "payment_intent.succeeded": event(f"evt_pi_{n}", "payment_intent.succeeded", intent),
        "payment_intent.succeeded (old API)": event(
            f"evt_pi_old_{n}", "payment_intent.succeeded", {**intent, "invoice": f"in_S{n}"}
        ),
        # the same report delivered again as a new event (Stripe resends, or a second
        # endpoint forwards it): a new event id, the same charge
        "invoice.paid again": event(f"evt_paid_again_{n}", "invoice.paid", invoice),
        "payment_intent.succeeded again": event(
            f"evt_pi_again_{n}", "payment_intent.succeeded", intent
        ),
    }


def test_the_issues_reproducer_an_invoice_then_its_intent_is_one_payment(client):
    """invoice.paid (in_S, pi_S, ch_S), then payment_intent.succeeded for pi_S with its
    latest charge ch_S and no invoice: one payment, the term extended once."""
    sponsorship = running_sponsorship()
    after_one_year = sponsorship.current_term.following().ends_on
    reports = renewal_reports(sponsorship, next(_fresh))
    assert post(client, reports["invoice.paid"]) == "processed"
    assert post(client, reports["payment_intent.succeeded"]) == "processed"
    payments = Payment.objects.filter(object_id=sponsorship.pk, stripe_id__contains="_S")
    (payment,) = payments
    assert (payment.stripe_id, payment.payment_intent_id, payment.charge_id) == (
        reports["invoice.paid"]["data"]["object"]["id"],
        reports["payment_intent.succeeded"]["data"]["object"]["id"],
        reports["invoice.paid"]["data"]["object"]["charge"],
    )
    sponsorship.refresh_from_db()
    assert sponsorship.ends_on == after_one_year
    assert sponsorship.paid_terms.count() == 2


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_order_and_repetition_of_one_charges_events_is_one_payment(data):
    """Any permutation of the events that report one charge, each possibly delivered
    twice (the same event id): one payment carrying the invoice, intent and charge, one
    term bought, one receipt; the term runs one year past the first."""
    client = Client()
    sponsorship = running_sponsorship()
    first = sponsorship.current_term
    n = next(_fresh)
    reports = renewal_reports(sponsorship, n)
    names = data.draw(st.permutations(list(reports)))
    twice = data.draw(st.lists(st.sampled_from(names), max_size=3))
    for name in [*names, *twice]:
        assert post(client, reports[name]) in {"processed", "ignored", "duplicate"}
    (payment,) = Payment.objects.filter(charge_id=f"ch_S{n}")
    assert payment.payment_intent_id == f"pi_S{n}"
    assert not Payment.objects.filter(stripe_id__in=[f"in_S{n}", f"pi_S{n}"]).exclude(pk=payment.pk)
    assert PaidTerm.objects.filter(sponsorship=sponsorship).count() == 2
    assert PaidTerm.objects.filter(payment=payment).count() == 1
    after = Sponsorship.objects.get(pk=sponsorship.pk)
    assert (after.starts_on, after.ends_on) == (first.starts_on, first.following().ends_on)
    receipts = IssuedDocument.objects.about(sponsorship).receipts()
    assert receipts.filter(occasion=payment.stripe_id).count() == 1
    assert receipts.count() == 2  # the first term's and this one's


def test_a_one_off_gift_accepts_one_payment(client):
    """The issue's €20 gift: paid by pi_D5, then a second intent and an invoice name it.
    Only the first is counted; the others are rejected, with the reason, for staff."""
    donation = DonationFactory(amount=Decimal("20"))
    delivered = [
        donation_events.payment_intent_succeeded(donation, intent_id="pi_D5", event_id="e1"),
        donation_events.payment_intent_succeeded(donation, intent_id="pi_D5", event_id="e2"),
        donation_events.payment_intent_succeeded(donation, intent_id="pi_D5b", event_id="e3"),
        donation_events.invoice_paid(donation, invoice_id="in_D5c", event_id="e4"),
    ]
    for payload in delivered:
        donation_events.post(client, payload, secret=WEBHOOK_SECRET)
    (gift,) = Gift.objects.all()
    assert (gift.stripe_id, gift.amount) == ("pi_D5", Decimal("20"))
    assert dict(StripeEvent.objects.values_list("event_id", "outcome")) == {
        "e1": "processed",
        "e2": "processed",
        "e3": "rejected",
        "e4": "rejected",
    }
    assert StripeEvent.objects.get(event_id="e3").reason == (
        "pi_D5b would be a second payment of what pi_D5 already paid"
    )


def test_a_one_off_gifts_intent_and_charge_reported_again_count_once(client):
    donation = DonationFactory(amount=Decimal("20"))
    first = donation_events.payment_intent_succeeded(
        donation, intent_id="pi_D6", event_id="e1", latest_charge="ch_D6"
    )
    again = donation_events.payment_intent_succeeded(
        donation, intent_id="pi_D6", event_id="e2", latest_charge="ch_D6"
    )
    for payload in (first, again):
        assert donation_events.post(client, payload, secret=WEBHOOK_SECRET).content == (
            b"processed\n"
        )
    (gift,) = Gift.objects.all()
    assert (gift.payment_intent_id, gift.charge_id) == ("pi_D6", "ch_D6")


@pytest.mark.parametrize("field", ["charge_id", "payment_intent_id"])
def test_the_database_refuses_a_second_payment_of_one_charge(field):
    """The last guard, below the lock and the look-up: no two payments share a charge or a
    payment intent (an empty one is no id, and many payments have none)."""
    donation = DonationFactory()
    made = {"paid_for": donation, "amount_minor": 100, "currency": "EUR"}
    recording.record_payment(stripe_id="in_a", paid_at=timezone.now(), **made, **{field: "x_1"})
    recording.record_payment(stripe_id="in_b", paid_at=timezone.now(), **made)
    recording.record_payment(stripe_id="in_c", paid_at=timezone.now(), **made)  # no ids: allowed
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(stripe_id="in_d", paid_at=timezone.now(), **made, **{field: "x_1"})
