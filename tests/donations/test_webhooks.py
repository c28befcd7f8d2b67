"""Stripe events for donations: verified, processed once each, in any order, never a 500."""

import time
from decimal import Decimal

import pytest

from donations.models import Donation, Gift
from invoicing.issuer import DEMO_NOTICE
from payments.models import Refund, StripeEvent
from tests.donations import stripe_events
from tests.donations.factories import DonationFactory

pytestmark = pytest.mark.django_db
S = Donation.Status


@pytest.fixture
def deliver(client, django_capture_on_commit_callbacks):
    def post(event, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return stripe_events.post(client, event, **kwargs)

    return post


def test_a_one_off_gift_is_recorded_and_receipted_with_a_manage_link(deliver, mailoutbox):
    donation = DonationFactory(email="", amount=Decimal("50"))
    response = deliver(stripe_events.payment_intent_succeeded(donation))
    assert response.status_code == 200
    assert response.content == b"processed\n"
    donation.refresh_from_db()
    assert donation.status == S.PAID
    assert donation.email == "giver@example.org"
    assert donation.stripe_customer_id == "cus_donor_1"
    gift = Gift.objects.get()
    assert (gift.stripe_id, gift.amount, gift.currency) == ("pi_donation_1", Decimal("50"), "EUR")
    [mail] = mailoutbox
    assert mail.to == ["giver@example.org"]
    assert mail.subject == "Your gift to the MariaDB Foundation: receipt for €50"
    assert "http://127.0.0.1:8000/donate/manage/" in mail.body
    assert DEMO_NOTICE in mail.body  # as on the receipt's PDF, while the issuer is the demo's


@pytest.mark.parametrize("demo", [True, False])
def test_the_receipt_mail_warns_of_a_demo_issuer_as_its_pdf_does(
    deliver, mailoutbox, settings, demo
):
    settings.INVOICE_ISSUER_DEMO = demo
    deliver(stripe_events.payment_intent_succeeded(DonationFactory(amount=Decimal("50"))))
    [mail] = mailoutbox
    assert (DEMO_NOTICE in mail.body) is demo


def test_the_same_event_twice_records_one_gift_and_one_receipt(deliver, mailoutbox):
    donation = DonationFactory()
    deliver(stripe_events.payment_intent_succeeded(donation))
    replay = deliver(stripe_events.payment_intent_succeeded(donation))
    assert replay.content == b"duplicate\n"
    assert Gift.objects.count() == 1
    assert len(mailoutbox) == 1


def test_a_one_off_gift_is_recorded_once_from_its_payment_intent(deliver, mailoutbox):
    donation = DonationFactory(amount=Decimal("37.50"))
    response = deliver(stripe_events.payment_intent_succeeded(donation))
    assert response.content == b"processed\n"
    gift = Gift.objects.get()
    assert (gift.stripe_id, gift.amount, gift.currency) == ("pi_donation_1", Decimal("37.5"), "EUR")
    donation.refresh_from_db()
    assert (donation.status, donation.stripe_payment_intent_id) == (S.PAID, "pi_donation_1")
    # The same intent again under another event id, then the intent of some invoice that
    # names the donation: still one gift, one receipt.
    deliver(stripe_events.payment_intent_succeeded(donation, event_id="evt_pi_again"))
    late = stripe_events.payment_intent_succeeded(
        donation, intent_id="pi_of_invoice", event_id="evt_pi_2", invoice="in_donation_9"
    )
    assert deliver(late).content == b"ignored\n"
    assert Gift.objects.count() == 1
    assert len(mailoutbox) == 1


def test_a_monthly_gift_in_any_order_records_each_invoice_once(deliver, mailoutbox):
    donation = DonationFactory(frequency=Donation.Frequency.MONTHLY, email="")
    # Stripe may deliver the second invoice before the first.
    second = stripe_events.invoice_paid(donation, invoice_id="in_donation_2", event_id="evt_in_2")
    assert deliver(second).content == b"processed\n"
    assert deliver(stripe_events.invoice_paid(donation)).content == b"processed\n"
    donation.refresh_from_db()
    assert donation.status == S.ACTIVE
    assert donation.email == "giver@example.org"
    assert sorted(Gift.objects.values_list("stripe_id", flat=True)) == [
        "in_donation_1",
        "in_donation_2",
    ]
    assert [mail.to for mail in mailoutbox] == [["giver@example.org"]] * 2
    assert "cancel the monthly gift" in mailoutbox[0].body


def test_a_failed_payment_and_a_cancellation_are_recorded(deliver, mailoutbox):
    donation = DonationFactory(
        frequency=Donation.Frequency.MONTHLY,
        status=S.ACTIVE,
        stripe_subscription_id="sub_donation_1",
    )
    failed = stripe_events.invoice_paid(donation, event_id="evt_fail")
    failed["type"] = "invoice.payment_failed"
    deliver(failed)
    donation.refresh_from_db()
    assert donation.status == S.PAST_DUE
    assert "could not be charged" in mailoutbox[0].subject
    deleted = stripe_events.event(
        "evt_del",
        "customer.subscription.deleted",
        {"id": "sub_donation_1", "object": "subscription"},
    )
    assert deliver(deleted).content == b"processed\n"
    donation.refresh_from_db()
    assert donation.status == S.CANCELLED


def test_a_refund_is_recorded_even_before_its_gift_is_known(deliver):
    donation = DonationFactory()
    refund = stripe_events.event(
        "evt_refund",
        "charge.refunded",
        {
            "id": "ch_1",
            "object": "charge",
            "payment_intent": "pi_donation_1",
            "customer": "cus_donor_1",
            "amount": 5000,
            "amount_refunded": 1000,
            "currency": "eur",
            "created": 1773144000,
        },
    )
    assert deliver(refund).content == b"processed\n"
    assert Refund.objects.get().payment is None
    deliver(stripe_events.payment_intent_succeeded(donation))
    recorded = Refund.objects.get()
    assert recorded.payment.paid_for == donation
    assert recorded.amount == Decimal("10")


def test_a_forged_signature_is_refused(client):
    donation = DonationFactory()
    response = stripe_events.post(
        client, stripe_events.payment_intent_succeeded(donation), secret="whsec_someone_else"
    )
    assert response.status_code == 400
    assert not Gift.objects.exists()
    assert not StripeEvent.objects.exists()


def test_a_signature_dated_in_the_future_is_refused(client):
    donation = DonationFactory()
    tomorrow = int(time.time()) + 86400
    response = stripe_events.post(
        client, stripe_events.payment_intent_succeeded(donation), timestamp=tomorrow
    )
    assert response.status_code == 400
    assert not Gift.objects.exists()


def test_a_stale_signature_is_refused(client):
    donation = DonationFactory()
    response = stripe_events.post(
        client, stripe_events.payment_intent_succeeded(donation), timestamp=int(time.time()) - 3600
    )
    assert response.status_code == 400


def _with_amount(donation, value):
    event = stripe_events.payment_intent_succeeded(donation)
    event["data"]["object"]["amount_received"] = value
    return event


@pytest.mark.parametrize(
    "make",
    [
        lambda donation: "[1, 2, 3]",
        lambda donation: "not json",
        lambda donation: {"type": "payment_intent.succeeded", "data": {"object": {}}},
        lambda donation: {"id": "evt_x", "type": "payment_intent.succeeded"},
        lambda donation: {"id": "evt_x", "type": "payment_intent.succeeded", "data": []},
        lambda donation: {"id": "evt_x", "type": ["x"], "data": {"object": {}}},
        lambda donation: stripe_events.event(
            "evt_x", "invoice.payment_failed", {"metadata": {"donation": "not-a-uuid"}}
        ),
        lambda donation: stripe_events.event(
            "evt_x",
            "invoice.payment_failed",
            {"metadata": {"donation": "6f1c2a36-0bb5-4a0e-9c53-000000000000"}},
        ),
        lambda donation: _with_amount(donation, "12.5"),
        lambda donation: _with_amount(donation, -100),
        lambda donation: stripe_events.event("evt_x", "charge.refunded", {"id": 5}),
        lambda donation: stripe_events.event(
            "evt_x", "invoice.paid", {"id": "in_1", "metadata": ["donation"]}
        ),
    ],
)
def test_signed_events_of_unexpected_shape_never_answer_500(client, make):
    donation = DonationFactory()
    response = stripe_events.post(client, make(donation))
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert response.content == b"ignored\n"
    assert not Gift.objects.exists()
    donation.refresh_from_db()
    assert donation.status == S.PENDING


def test_an_oversized_event_is_refused_before_it_is_read(client):
    # A real body of that size: the site reads what a view left unread before answering
    # (core.uploads.DrainRequestBodyMiddleware), so a declared length must be true.
    response = client.post(
        stripe_events.URL, "x" * (5 * 1024 * 1024), content_type="application/json"
    )
    assert response.status_code == 413


def test_a_stripe_checkout_session_pays_for_nothing(deliver, mailoutbox):
    """The site sells through the card element only: a Checkout session that names a
    donation (someone's own Stripe Checkout, an old link) records no gift and changes no
    donation; only the payment itself (payment_intent.succeeded, invoice.paid) counts."""
    donation = DonationFactory(amount=Decimal("50"))
    session = {
        "id": "cs_test_1",
        "object": "checkout.session",
        "mode": "payment",
        "metadata": {"donation": str(donation.reference)},
        "customer": "cus_donor_1",
        "payment_status": "paid",
        "amount_total": 5000,
        "currency": "eur",
        "created": 1773144000,
        "payment_intent": "pi_donation_1",
    }
    response = deliver(stripe_events.event("evt_cs", "checkout.session.completed", session))
    assert (response.status_code, response.content) == (200, b"ignored\n")
    assert not Gift.objects.exists()
    donation.refresh_from_db()
    assert (donation.status, donation.stripe_customer_id) == (S.PENDING, "")
    assert mailoutbox == []
