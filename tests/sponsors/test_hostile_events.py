"""Issue 34: correctly signed but hostile sponsorship events. Metadata ids in other digits,
a second t= in the signature, payments of nothing, without a date, in a currency the
site does not sell or with a receipt link that is not Stripe's: none answers 500, none
pays for a sponsorship, and a rejected event is recorded and acknowledged (Stripe stops
resending it). Amounts in a zero-decimal currency are Stripe's own units both ways."""

import time
from decimal import Decimal

import pytest

from payments.gateway import client
from payments.models import StripeEvent
from sponsors import stripe_objects
from sponsors.models import Payment, Sponsorship
from sponsors.services import applications, lifecycle
from sponsors.webhooks import HANDLERS
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event, signed

pytestmark = pytest.mark.django_db
S = Sponsorship.Status


@pytest.fixture
def awaiting(django_capture_on_commit_callbacks):
    """A sponsorship approved and waiting for its payment (EUR)."""
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ONCE, None
    )
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.AWAITING_PAYMENT
    return sponsorship


def payment(sponsorship, **changes):
    obj = {
        "id": "pi_1",
        "object": "payment_intent",
        "amount_received": 5000000,
        "currency": "eur",
        "created": 1767225600,
        "metadata": {"sponsorship": str(sponsorship.pk)},
    }
    return event("evt_1", "payment_intent.succeeded", {**obj, **changes})


def assert_not_paid(sponsorship):
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.AWAITING_PAYMENT
    assert sponsorship.paid_at is None
    assert not Payment.objects.exists()


@pytest.mark.parametrize("event_type", sorted(HANDLERS))
@pytest.mark.parametrize("digits", ["¹", "²³", "٣"], ids=["superscript", "two", "arabic"])
def test_metadata_in_other_digits_names_no_sponsorship(post_event, awaiting, event_type, digits):
    obj = {**payment(awaiting)["data"]["object"], "metadata": {"sponsorship": digits}}
    response = post_event(event("evt_digits", event_type, obj))
    assert (response.status_code, response.content.decode()) == (200, "ignored\n")
    assert_not_paid(awaiting)


def test_a_later_t_does_not_hide_a_signature_dated_in_the_future(client, awaiting):
    payload, header = signed(payment(awaiting), timestamp=int(time.time()) + 3600)
    response = client.post(
        "/stripe/webhook/",
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=header + ",t=1",
    )
    assert response.status_code == 400
    assert not StripeEvent.objects.exists()
    assert_not_paid(awaiting)


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"amount_received": 0}, "the amount paid is not a positive amount"),
        ({"created": None}, "it does not say when it happened"),
        ({"created": 5}, "its created date is before 2010 or in the future"),
        ({"created": int(time.time()) + 10 * 86400}, "before 2010 or in the future"),
        ({"currency": "xyz"}, "XYZ is not a currency the site sells (EUR, USD)"),
        ({"currency": None}, "it names no currency"),
        ({"currency": "usd"}, "it pays in USD, the sponsorship is priced in EUR"),
        (
            {"hosted_invoice_url": "javascript:alert(document.cookie)"},
            "hosted_invoice_url is not an https address on Stripe's hosts",
        ),
        (
            {"hosted_invoice_url": "http://invoice.stripe.com/i/1"},
            "hosted_invoice_url is not an https address on Stripe's hosts",
        ),
        (
            {"hosted_invoice_url": "https://invoice.stripe.com.evil.example/i/1"},
            "hosted_invoice_url is not an https address on Stripe's hosts",
        ),
    ],
)
def test_a_payment_the_site_does_not_sell_is_recorded_as_rejected(
    post_event, awaiting, changes, reason
):
    obj = payment(awaiting, **changes)["data"]["object"]
    obj = {key: value for key, value in obj.items() if value is not None}
    response = post_event(event("evt_1", "payment_intent.succeeded", obj))
    assert (response.status_code, response.content.decode()) == (200, "rejected\n")
    assert_not_paid(awaiting)
    recorded = StripeEvent.objects.get()
    assert recorded.outcome == "rejected"
    assert reason in recorded.reason
    # Acknowledged once: Stripe's retry is a duplicate and still pays for nothing.
    assert post_event(event("evt_1", "payment_intent.succeeded", obj)).content == b"duplicate\n"
    assert_not_paid(awaiting)


def test_a_receipt_on_stripe_is_kept(post_event, awaiting):
    url = "https://invoice.stripe.com/i/acct_1/live_1"
    assert post_event(payment(awaiting, hosted_invoice_url=url)).content == b"processed\n"
    assert Payment.objects.get().receipt_url == url


def test_the_fakes_receipt_links_are_accepted_outside_production_only(
    post_event, awaiting, settings
):
    settings.STRIPE_API_BASE = "http://127.0.0.1:24001"
    url = "http://127.0.0.1:24001/invoices/in_1"
    settings.PRODUCTION = True
    assert post_event(payment(awaiting, hosted_invoice_url=url)).content == b"rejected\n"
    settings.PRODUCTION = False
    response = post_event({**payment(awaiting, hosted_invoice_url=url), "id": "evt_2"})
    assert response.content == b"processed\n"
    assert Payment.objects.get().receipt_url == url


def test_a_yen_payment_is_recorded_in_yen(post_event, django_capture_on_commit_callbacks):
    tier = TierFactory(currency="JPY", annual_price=Decimal("5000"))
    sponsorship = applications.apply(
        OrganisationFactory(), tier, Sponsorship.Payment.CARD_ONCE, None
    )
    response = post_event(payment(sponsorship, amount_received=5000, currency="jpy"))
    assert response.content == b"processed\n"
    assert (Payment.objects.get().amount, Payment.objects.get().currency) == (
        Decimal("5000"),
        "JPY",
    )


def test_a_yen_plan_asks_stripe_for_the_price_in_yen(fake_stripe):
    tier = TierFactory(currency="JPY", annual_price=Decimal("5000"))
    plan = client().v1.plans.retrieve(stripe_objects.ensure_plan(tier))
    assert (plan.amount, plan.currency) == (5000, "jpy")
    euro_tier = TierFactory(currency="EUR", annual_price=Decimal("50.00"))
    plan = client().v1.plans.retrieve(stripe_objects.ensure_plan(euro_tier))
    assert (plan.amount, plan.currency) == (5000, "eur")
