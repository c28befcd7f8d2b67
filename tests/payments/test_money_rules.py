"""Issue 47, items 3-5: a signed event records only what its amount, currency and object
say. Refunds (and disputes) never take back more than was paid, in any order and over
any number of charges; a payment extends a sponsorship only when it pays the term's
price; amounts keep each currency's own minor unit; a link stored from Stripe is on
Stripe's host as a browser reads it. Each rule with the issue's reproducers (signed, on
the one endpoint) and a property over varied inputs (hypothesis)."""

import time
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from donations import ledger
from donations.models import Gift
from payments import gateway, webhooks
from payments.models import Dispute, Payment, Refund, StripeEvent
from payments.money import minor_unit_digits, minor_units
from payments.validation import is_stripe_url
from sponsors.models import PaidTerm, Sponsorship
from sponsors.services import applications, lifecycle
from tests.donations.factories import DonationFactory
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import WEBHOOK_SECRET, event, signed

pytestmark = pytest.mark.django_db
S = Sponsorship.Status
MARCH_2024 = 1710000000  # 2024-03-09
PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def post(client, settings, django_capture_on_commit_callbacks):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET

    def deliver(payload):
        body, signature = signed(payload)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/stripe/webhook/",
                body,
                content_type="application/json",
                HTTP_STRIPE_SIGNATURE=signature,
            )
        assert response.status_code == 200, response.content
        return response.content.decode().strip()

    return deliver


def gift_paid(donation, amount_minor, *, intent="pi_gift", event_id="evt_gift", currency="eur"):
    return event(
        event_id,
        "payment_intent.succeeded",
        {
            "id": intent,
            "object": "payment_intent",
            "amount_received": amount_minor,
            "currency": currency,
            "created": MARCH_2024,
            "metadata": {"donation": str(donation.reference)},
        },
    )


def in_march_2024(stripe_event):
    """Stripe dates a refund or dispute by its event (the charge's own date is its payment's)."""
    return {**stripe_event, "created": MARCH_2024 + 3600}


def refunded(event_id, charge, refunded_minor, charged_minor, *, intent="pi_gift", currency="eur"):
    return in_march_2024(
        event(
            event_id,
            "charge.refunded",
            {
                "id": charge,
                "object": "charge",
                "payment_intent": intent,
                "amount": charged_minor,
                "amount_refunded": refunded_minor,
                "currency": currency,
                "created": MARCH_2024,
            },
        )
    )


def donors(year=2024) -> Decimal:
    return sum((e.amount for e in ledger.entries(year) if e.category == ledger.DONORS), Decimal(0))


# Issue 47.4: refunds never exceed what was paid.


def test_a_refund_of_1000_before_the_20_eur_gift_it_names_takes_back_20_at_most(post):
    """The issue's reproducer: it gave -900.00 on /funding/."""
    donation = DonationFactory(amount=Decimal("20"))
    assert post(refunded("evt_r", "ch_1", 100000, 100000)) == "processed"  # gift unknown yet
    assert post(gift_paid(donation, 2000)) == "processed"
    assert Refund.objects.get().payment == Payment.objects.get()
    assert donors() == Decimal("0.00")
    assert Gift.objects.get().kept == Decimal("0.00")


def test_two_charges_refunding_the_same_gift_take_back_what_it_paid_once(post):
    donation = DonationFactory(amount=Decimal("20"))
    post(gift_paid(donation, 2000))
    assert post(refunded("evt_r1", "ch_1", 2000, 2000)) == "processed"
    assert post(refunded("evt_r2", "ch_2", 2000, 2000)) == "rejected"
    assert StripeEvent.objects.get(event_id="evt_r2").reason.startswith(
        "it would take back 4000 of the 2000"
    )
    assert donors() == Decimal("0.00")


def test_partial_refunds_of_one_charge_count_its_latest_total(post):
    donation = DonationFactory(amount=Decimal("20"))
    post(gift_paid(donation, 2000))
    post(refunded("evt_r2", "ch_1", 1500, 2000))
    post(refunded("evt_r1", "ch_1", 500, 2000))  # the older total, delivered late
    assert donors() == Decimal("5.00")


charges = st.sampled_from(["ch_a", "ch_b", "ch_c"])


@PROPERTY
@given(
    paid=st.integers(min_value=1, max_value=500_000),
    refunds=st.lists(st.tuples(charges, st.integers(min_value=1, max_value=1_000_000)), max_size=6),
    payment_position=st.integers(min_value=0, max_value=6),
    disputed=st.one_of(st.none(), st.integers(min_value=1, max_value=600_000)),
)
@example(paid=2000, refunds=[("ch_a", 100000)], payment_position=1, disputed=None)
@example(paid=2000, refunds=[("ch_a", 2000), ("ch_b", 2000)], payment_position=0, disputed=None)
def test_no_order_of_refunds_and_disputes_takes_back_more_than_was_paid(
    post, paid, refunds, payment_position, disputed
):
    for model in (StripeEvent, Refund, Dispute, Payment):
        model.objects.all().delete()
    donation = DonationFactory(amount=from_minor(paid))
    deliveries = [
        refunded(f"evt_r{i}", charge, amount, max(amount, paid))
        for i, (charge, amount) in enumerate(refunds)
    ]
    if disputed is not None:
        deliveries.append(dispute("evt_dp", disputed))
    deliveries.insert(min(payment_position, len(deliveries)), gift_paid(donation, paid))
    for delivery in deliveries:
        post(delivery)
    gift = Gift.objects.get()
    assert 0 <= gift.taken_back_minor <= paid
    assert Decimal(0) <= donors() <= from_minor(paid)
    assert donors() == gift.kept
    negative = [e.amount for e in ledger.entries(2024) if e.amount < 0]
    assert -sum(negative, Decimal(0)) <= from_minor(paid)


def from_minor(amount_minor, currency="EUR"):
    return Decimal(amount_minor).scaleb(-minor_unit_digits(currency))


def dispute(event_id, amount_minor, status="needs_response", type_="charge.dispute.created"):
    return in_march_2024(
        event(
            event_id,
            type_,
            {
                "id": "dp_1",
                "object": "dispute",
                "charge": "ch_a",
                "payment_intent": "pi_gift",
                "amount": amount_minor,
                "currency": "eur",
                "status": status,
                "created": MARCH_2024,
            },
        )
    )


def test_a_dispute_takes_the_money_back_until_it_is_won(post):
    donation = DonationFactory(amount=Decimal("20"))
    post(gift_paid(donation, 2000))
    assert post(dispute("evt_dp1", 2000)) == "processed"
    assert donors() == Decimal("0.00")
    assert post(dispute("evt_dp2", 2000, "won", "charge.dispute.closed")) == "processed"
    assert donors() == Decimal("20.00")


# Issue 47.5: a payment extends a sponsorship only when it pays the term's price.


@pytest.fixture
def active(django_capture_on_commit_callbacks, post):
    """An active sponsorship paid once (EUR 50,000 a year), ending on 2027-06-15."""
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ANNUAL, None
    )
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    assert post(sponsor_paid(sponsorship, 5_000_000, "pi_first")) == "processed"
    Sponsorship.objects.filter(pk=sponsorship.pk).update(ends_on=date(2027, 6, 15))
    return Sponsorship.objects.get(pk=sponsorship.pk)


def sponsor_paid(sponsorship, amount_minor, intent, currency="eur"):
    return event(
        f"evt_{intent}",
        "payment_intent.succeeded",
        {
            "id": intent,
            "object": "payment_intent",
            "amount_received": amount_minor,
            "currency": currency,
            "created": int(time.time()),
            "metadata": {"sponsorship": str(sponsorship.pk)},
        },
    )


def test_one_cent_does_not_extend_a_sponsorship_and_44_of_them_neither(post, active):
    """The issue's reproducer: 1 cent moved ends_on from 2027-06-15 to 2028-06-14."""
    for number in range(44):
        assert post(sponsor_paid(active, 1, f"pi_cent_{number}")) == "processed"
    active.refresh_from_db()
    assert active.ends_on == date(2027, 6, 15)
    assert active.payments.count() == 45  # the cents are money received all the same
    assert "not the term's price" in active.events.last().note


@PROPERTY
@given(amount=st.integers(min_value=1, max_value=10_000_000))
@example(amount=4_999_999)
@example(amount=5_000_000)
def test_only_a_payment_of_the_terms_price_extends_the_term(post, active, amount):
    Sponsorship.objects.filter(pk=active.pk).update(ends_on=date(2027, 6, 15))
    StripeEvent.objects.filter(event_id="evt_pi_next").delete()
    PaidTerm.objects.filter(payment__stripe_id="pi_next").delete()  # the term it bought
    Payment.objects.filter(stripe_id="pi_next").delete()
    post(sponsor_paid(active, amount, "pi_next"))
    active.refresh_from_db()
    extended = active.ends_on != date(2027, 6, 15)
    assert extended == (amount >= 5_000_000)


def test_the_payment_intent_of_an_invoice_is_not_counted_beside_the_invoice(post, active):
    invoice_intent = sponsor_paid(active, 5_000_000, "pi_of_invoice")
    invoice_intent["data"]["object"]["invoice"] = "in_1"
    assert post(invoice_intent) == "ignored"
    assert active.payments.count() == 1


# Issue 47.5: amounts in each currency's own minor unit.


def test_a_kwd_payment_of_0_005_is_stored_as_0_005(post, settings):
    settings.DONATION_CURRENCIES = ["EUR", "KWD"]
    donation = DonationFactory(amount=Decimal("0.005"), currency="KWD")
    assert post(gift_paid(donation, 5, currency="kwd")) == "processed"
    gift = Gift.objects.get()
    assert (gift.amount, gift.currency) == (Decimal("0.005"), "KWD")
    assert donors() == Decimal("0.005")


@PROPERTY
@given(
    currency=st.sampled_from(["EUR", "USD", "JPY", "KRW", "KWD", "BHD", "TND"]),
    amount_minor=st.integers(min_value=1, max_value=99_999_999),
)
@example(currency="KWD", amount_minor=5)
@example(currency="JPY", amount_minor=5000)
def test_every_amount_is_kept_to_its_currencys_minor_unit(post, settings, currency, amount_minor):
    settings.DONATION_CURRENCIES = ["EUR", "USD", "JPY", "KRW", "KWD", "BHD", "TND"]
    for model in (StripeEvent, Payment):
        model.objects.all().delete()
    donation = DonationFactory(amount=Decimal("1"), currency=currency)
    assert post(gift_paid(donation, amount_minor, currency=currency.lower())) == "processed"
    gift = Gift.objects.get()
    assert gift.amount == from_minor(amount_minor, currency)
    assert gift.amount.as_tuple().exponent == -minor_unit_digits(currency)
    assert minor_units(gift.amount, currency) == amount_minor


# Issue 47.3: links stored from Stripe are on Stripe's hosts, as a browser reads them.

EVIL = st.from_regex(r"[a-z][a-z0-9-]{0,12}\.(example|test|com|net)", fullmatch=True)
TRICKS = [
    "https://{evil}\\.stripe.com/receipt",
    "https://{evil}%5C.stripe.com/receipt",
    "https://{evil}%5c.stripe.com/receipt",
    "https://user@{evil}:1@stripe.com/receipt",
    "https://{evil}\\@stripe.com/receipt",
    "https://{evil}\\\\invoice.stripe.com/",
    "https://{evil}/.stripe.com/",
    "https://{evil}#.stripe.com",
    "https://{evil}?.stripe.com",
    "https://stripe.com.{evil}/",
    "https://stripe.com@{evil}/",
    "https:{evil}\\.stripe.com",
    "https://{evil}%2Fstripe.com/",
    "https://{evil}\t.stripe.com/",
    "https://{evil}\n.stripe.com/",
    " https://{evil}\\.stripe.com/",
    "http://invoice.stripe.com/{evil}",
    "https://invoice.stripe.com:8443/{evil}",
    "javascript://invoice.stripe.com/%0Aalert(1)//{evil}",
    "//{evil}\\.stripe.com/",
]


@PROPERTY
@given(evil=EVIL, trick=st.sampled_from(TRICKS))
def test_no_link_to_another_host_passes_for_stripes(evil, trick):
    assert not is_stripe_url(trick.format(evil=evil))


@PROPERTY
@given(
    sub=st.sampled_from(["", "invoice.", "pay.", "files.", "dashboard."]),
    path=st.from_regex(r"(/[A-Za-z0-9_-]{1,20}){0,4}", fullmatch=True),
)
def test_stripes_own_links_pass(sub, path):
    assert is_stripe_url(f"https://{sub}stripe.com{path}")


@pytest.mark.parametrize(
    "link",
    [
        "https://evil.example\\.stripe.com/receipt",
        "https://evil.example%5C.stripe.com/receipt",
        "https://user@evil.example:1@stripe.com/receipt",
    ],
)
def test_a_signed_invoice_with_a_receipt_link_elsewhere_is_rejected(post, active, link):
    """The issue's reproducers: each was stored, and the sponsor's page linked to it."""
    invoice = event(
        "evt_inv",
        "invoice.paid",
        {
            "id": "in_evil",
            "object": "invoice",
            "amount_paid": 5_000_000,
            "currency": "eur",
            "created": int(time.time()),
            "hosted_invoice_url": link,
            "metadata": {"sponsorship": str(active.pk)},
        },
    )
    assert post(invoice) == "rejected"
    assert not Payment.objects.filter(stripe_id="in_evil").exists()
    assert not Payment.objects.filter(receipt_url__contains="evil").exists()


# Issue 46.3: no Stripe call inside a database transaction.


@pytest.mark.django_db(transaction=True)
def test_the_subscription_is_asked_of_stripe_outside_any_transaction(post, monkeypatch):
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ANNUAL, None
    )
    asked = []

    def subscription_metadata(subscription_id):
        asked.append((subscription_id, connection.in_atomic_block))
        return {"sponsorship": str(sponsorship.pk)}

    monkeypatch.setattr(gateway, "subscription_metadata", subscription_metadata)
    invoice = event(
        "evt_sub_inv",
        "invoice.payment_succeeded",
        {
            "id": "in_sub_1",
            "object": "invoice",
            "subscription": "sub_unknown_yet",
            "amount_paid": 5_000_000,
            "currency": "eur",
            "created": int(time.time()),
        },
    )
    assert post(invoice) == "processed"
    assert asked == [("sub_unknown_yet", False)]
    assert Payment.objects.get().paid_for == sponsorship
    assert webhooks.process(invoice) == "duplicate"
    assert len(asked) == 1  # a replay asks Stripe nothing
