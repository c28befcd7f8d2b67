"""Correctly signed Stripe deliveries of unexpected shape never answer 500: a non-event, or
an event holding values the models cannot hold, is refused with 400 and the reason; an
event about no sponsorship is acknowledged as ignored and logged; neither changes anything."""

import hashlib
import hmac
import json
import logging
import time

import pytest

from payments.models import StripeEvent
from sponsors.models import Payment, Sponsorship
from sponsors.services import applications
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import WEBHOOK_SECRET, event

pytestmark = pytest.mark.django_db


@pytest.fixture
def sponsorship():
    return applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ONCE, None
    )


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


def assert_unchanged(sponsorship):
    sponsorship.refresh_from_db()
    assert sponsorship.paid_at is None
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [
        "[]",
        json.dumps([{"id": "evt_1", "type": "invoice.paid"}]),
        '"invoice.paid"',
        "null",
        json.dumps({"type": "invoice.paid", "data": {"object": {}}}),  # no id
        json.dumps({"id": "evt_1", "data": {"object": {}}}),  # no type
        json.dumps({"id": ["evt_1"], "type": "invoice.paid"}),
        json.dumps({"id": "evt_" + "x" * 200, "type": "invoice.paid"}),
        "{not json",
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=[
        "array",
        "array-of-events",
        "string",
        "null",
        "no-id",
        "no-type",
        "id-not-text",
        "id-too-long",
        "not-json",
        "deeply-nested",
    ],
)
def test_a_signed_payload_that_is_no_stripe_event_is_refused(post_payload, sponsorship, payload):
    response = post_payload(payload)
    assert response.status_code == 400
    assert not StripeEvent.objects.exists()
    assert_unchanged(sponsorship)


def test_a_signed_payload_that_is_not_utf8_is_refused(client, sponsorship):
    payload = b"\xff\xfe{}"
    timestamp = int(time.time())
    signature = hmac.new(
        WEBHOOK_SECRET.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256
    ).hexdigest()
    response = client.post(
        "/stripe/webhook/",
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=f"t={timestamp},v1={signature}",
    )
    assert response.status_code == 400
    assert not StripeEvent.objects.exists()


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"amount_received": "5000000"}, "data.object.amount_received is not a whole number"),
        ({"amount_received": "lots"}, "data.object.amount_received is not a whole number"),
        ({"amount_received": 50000.5}, "data.object.amount_received is not a whole number"),
        ({"amount_received": -100}, "data.object.amount_received is not a whole number"),
        ({"amount_received": 10**30}, "data.object.amount_received is not a whole number"),
        ({"amount_received": True}, "data.object.amount_received is not a whole number"),
        ({"metadata": "sponsorship=1"}, "data.object.metadata is not an object"),
        ({"metadata": {"sponsorship": 1}}, "data.object.metadata.sponsorship is not a text"),
        ({"id": "pi_" + "9" * 300}, "data.object.id is longer than 255 characters"),
        ({"id": "pi_1\x00"}, "a string holds a NUL character"),
        ({"id": ["pi_1"]}, "data.object.id is not a Stripe id"),
        ({"currency": 978}, "data.object.currency is not an ISO currency code"),
        ({"created": "yesterday"}, "data.object.created is not a Unix time"),
        ({"created": 10**20}, "data.object.created is not a Unix time"),
        ({"hosted_invoice_url": "https://x.example/" + "a" * 600}, "is not a URL of at most 500"),
    ],
)
def test_a_signed_event_with_values_the_models_cannot_hold_is_refused_with_the_reason(
    post_event, sponsorship, changes, reason
):
    response = post_event(payment(sponsorship, **changes))
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not StripeEvent.objects.exists()
    assert_unchanged(sponsorship)


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"metadata": {"sponsorship": "999999"}}, "it matches no sponsorship"),
        ({"metadata": {"sponsorship": "9" * 30}}, "it matches no sponsorship"),
        ({"id": None}, "its object has no usable id"),
    ],
)
def test_a_signed_event_about_no_sponsorship_is_ignored_and_logged(
    post_event, sponsorship, caplog, changes, reason
):
    with caplog.at_level(logging.WARNING, logger="payments.webhooks"):
        response = post_event(payment(sponsorship, **changes))
    assert (response.status_code, response.content.decode()) == (200, "ignored\n")
    assert f"Stripe event evt_1 (payment_intent.succeeded) ignored: {reason}" in caplog.text
    assert_unchanged(sponsorship)
    # Acknowledged once: a replay is a duplicate, not a second attempt.
    assert post_event(payment(sponsorship, **changes)).content.decode() == "duplicate\n"


@pytest.mark.parametrize(
    "envelope",
    [{"data": {}}, {"data": None}, {"data": {"object": "pi_1"}}, {"data": []}],
    ids=["no-object", "null-data", "object-not-a-mapping", "data-is-a-list"],
)
def test_a_handled_event_without_an_object_is_refused(post_event, sponsorship, envelope):
    response = post_event({**payment(sponsorship), **envelope})
    assert (response.status_code, response.content.decode()) == (
        400,
        "the event carries no data.object\n",
    )
    assert not StripeEvent.objects.exists()
    assert_unchanged(sponsorship)


@pytest.mark.parametrize(
    "type_, obj",
    [
        ("payment_intent.payment_failed", {"metadata": {"sponsorship": "424242"}, "id": "pi_1"}),
        ("payment_intent.payment_failed", {"metadata": {"sponsorship": "1"}}),
        ("invoice.payment_failed", {"id": "in_1", "parent": "sub", "subscription": None}),
        ("customer.subscription.deleted", {"object": "subscription"}),
        (
            "invoice.paid",
            {
                "id": "in_1",
                "amount_paid": 100,
                "currency": "eur",
                "created": 1767225600,
                "parent": {"subscription_details": 7},
            },
        ),
    ],
)
def test_other_handled_types_with_unusable_objects_are_ignored(post_event, sponsorship, type_, obj):
    response = post_event(event("evt_x", type_, obj))
    assert (response.status_code, response.content.decode()) == (200, "ignored\n")
    sponsorship.refresh_from_db()
    assert sponsorship.status == Sponsorship.Status.APPLIED
    assert sponsorship.stripe_subscription_id == ""
    assert_unchanged(sponsorship)


def test_a_good_payment_is_still_processed(post_event, sponsorship):
    assert post_event(payment(sponsorship)).content.decode() == "processed\n"
    assert Payment.objects.get().amount == 50000


def test_a_signature_dated_a_day_in_the_future_is_refused(post_event, sponsorship):
    response = post_event(payment(sponsorship), timestamp=int(time.time()) + 24 * 3600)
    assert response.status_code == 400
    assert not StripeEvent.objects.exists()
    assert_unchanged(sponsorship)


def test_a_signature_dated_an_hour_ago_is_refused(post_event, sponsorship):
    response = post_event(payment(sponsorship), timestamp=int(time.time()) - 3600)
    assert response.status_code == 400
    assert_unchanged(sponsorship)


def test_a_clock_a_minute_ahead_is_within_the_tolerance(post_event, sponsorship):
    response = post_event(payment(sponsorship), timestamp=int(time.time()) + 60)
    assert response.content.decode() == "processed\n"
