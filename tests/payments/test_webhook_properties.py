"""Property: whatever a correctly signed delivery holds, the one Stripe endpoint answers
200 (used, ignored or a duplicate) or 400 with a reason, never a 5xx, and a refusal
changes nothing. Every event type an app registered is driven with generated objects
mixing Stripe's shapes with hostile values (NUL bytes, ids and URLs longer than the
columns, numbers out of range, wrong types, deep nesting)."""

import json
import string
import time
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from donations.models import Donation, Gift
from outbox.models import OutboxItem
from payments import dispatch
from payments.models import Refund, StripeEvent
from sponsors.models import Payment, Sponsorship, SponsorshipEvent
from sponsors.services import applications
from tests.donations.factories import DonationFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import WEBHOOK_SECRET, sign

pytestmark = pytest.mark.django_db
HANDLED = dispatch.handled_types()


@pytest.fixture
def world(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ANNUAL, None
    )
    Sponsorship.objects.filter(pk=sponsorship.pk).update(stripe_subscription_id="sub_s1")
    donation = DonationFactory(stripe_subscription_id="sub_d1", stripe_customer_id="cus_d1")
    return sponsorship, donation


def state():
    """Everything a webhook may change."""
    return (
        StripeEvent.objects.count(),
        Payment.objects.count(),
        Gift.objects.count(),
        Refund.objects.count(),
        OutboxItem.objects.count(),
        SponsorshipEvent.objects.count(),
        sorted(Sponsorship.objects.values_list("pk", "status", "stripe_subscription_id")),
        sorted(Donation.objects.values_list("pk", "status", "stripe_customer_id")),
    )


def hostile_text(max_size=20):
    return st.text(max_size=max_size) | st.sampled_from(
        ["x\x00y", "\ud800", "9" * 300, "https://x.example/" + "a" * 600, ""]
    )


def stripe_ids(prefix):
    good = st.text(string.ascii_letters + string.digits, min_size=1, max_size=24).map(
        lambda s: prefix + s
    )
    return (
        good
        | st.sampled_from([f"{prefix}1", "sub_s1", "sub_d1", "cus_d1"])
        | st.none()
        | (hostile_text() | st.integers() | st.builds(lambda i: {"id": i}, good | hostile_text()))
    )


def numbers():
    return (
        st.integers(min_value=0, max_value=10**6)
        | st.integers()
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.booleans()
        | st.none()
        | hostile_text(5)
    )


def metadata(references):
    values = st.sampled_from(references) | hostile_text(30) | st.integers()
    keys = st.sampled_from(["sponsorship", "donation"]) | hostile_text(50)
    return st.dictionaries(keys, values, max_size=3) | st.none() | hostile_text(5)


def objects(references):
    meta = metadata(references)
    details = st.fixed_dictionaries(
        {}, optional={"subscription": stripe_ids("sub_"), "metadata": meta}
    )
    return st.fixed_dictionaries(
        {},
        optional={
            "id": stripe_ids("in_"),
            "customer": stripe_ids("cus_"),
            "subscription": stripe_ids("sub_"),
            "payment_intent": stripe_ids("pi_"),
            "invoice": stripe_ids("in_"),
            "amount": numbers(),
            "amount_paid": numbers(),
            "amount_received": numbers(),
            "amount_total": numbers(),
            "amount_refunded": numbers(),
            "currency": st.sampled_from(["eur", "usd", "EUR"]) | hostile_text(4) | st.integers(),
            "created": st.integers(min_value=1_700_000_000, max_value=1_800_000_000) | numbers(),
            "metadata": meta,
            "hosted_invoice_url": st.just("https://invoice.stripe.com/i/1") | hostile_text(),
            "payment_status": st.sampled_from(["paid", "unpaid"]),
            "customer_details": st.fixed_dictionaries(
                {}, optional={"email": st.emails() | hostile_text(300)}
            ),
            "customer_email": st.emails() | hostile_text(),
            "parent": st.fixed_dictionaries({"subscription_details": details}) | st.none(),
            "subscription_details": details | st.none(),
            "lines": st.recursive(
                st.none(), lambda inner: st.lists(inner, max_size=1), max_leaves=40
            ),
        },
    )


def events(event_type, references):
    event_ids = st.uuids().map(lambda u: f"evt_{u.hex}") | hostile_text(300) | st.none()
    return st.fixed_dictionaries(
        {
            "id": event_ids,
            "type": st.just(event_type),
            "data": st.fixed_dictionaries({"object": objects(references)}),
        }
    )


def test_every_handled_type_is_registered():
    # Both apps registered in their AppConfig.ready(): the property covers their types.
    assert {"invoice.paid", "charge.refunded"} <= set(HANDLED)
    assert "checkout.session.completed" not in HANDLED  # the site sells through no Checkout
    assert {"payment_intent.succeeded", "customer.subscription.deleted"} <= set(HANDLED)


@pytest.mark.parametrize("event_type", HANDLED)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_signed_events_of_any_shape_answer_200_or_400_and_a_refusal_changes_nothing(
    client, world, event_type, data
):
    sponsorship, donation = world
    references = [str(sponsorship.pk), str(donation.reference), str(uuid.uuid4())]
    event = data.draw(events(event_type, references))
    payload = json.dumps(event)
    before = state()
    response = client.post(
        "/stripe/webhook/",
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=sign(payload, timestamp=int(time.time())),
    )
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert response.content.strip(), "a refusal says why"
        assert state() == before
    else:
        assert response.content.decode() in (
            "processed\n",
            "ignored\n",
            "rejected\n",
            "duplicate\n",
        )


@pytest.mark.parametrize(
    "payload, reason",
    [
        ("[" * 3000 + "]" * 3000, "nested deeper than 32 levels"),
        (
            json.dumps(
                {"id": "evt_1", "type": "invoice.paid", "data": {"object": {"id": "in_\x00"}}}
            ),
            "NUL",
        ),
        (
            json.dumps(
                {
                    "id": "evt_1",
                    "type": "invoice.paid",
                    "data": {"object": {"id": "in_" + "1" * 297}},
                }
            ),
            "longer than 255",
        ),
        (
            json.dumps(
                {
                    "id": "evt_1",
                    "type": "invoice.paid",
                    "data": {
                        "object": {"id": "in_1", "hosted_invoice_url": "https://x/" + "a" * 600}
                    },
                }
            ),
            "URL of at most 500",
        ),
        (
            # an object's id may be an expanded object; the event's own never is
            json.dumps(
                {"id": {"id": "evt_1"}, "type": "invoice.paid", "data": {"object": {"id": "in_1"}}}
            ),
            "id is not a Stripe id",
        ),
    ],
    ids=[
        "3000-arrays-deep",
        "nul-in-id",
        "300-char-invoice-id",
        "600-char-url",
        "event-id-an-object",
    ],
)
def test_the_probes_reproductions_are_refused_with_a_reason(client, world, payload, reason):
    before = state()
    response = client.post(
        "/stripe/webhook/",
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=sign(payload),
    )
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert state() == before
