"""Refunds made at Stripe reach the site through its webhook (issue 46, item 3): against
localstripe as `make run` starts it (scripts/localstripe_invoicing.py, which sends the
``charge.refunded`` Stripe sends). A gift and a sponsorship are paid at the fake, the fake
posts its signed events to the live server, a refund is made at the fake
(``POST /v1/refunds``), and the funding figures, the donor's page and the sponsor's
dashboard show what is left."""

import time
from decimal import Decimal

import pytest
from pytest_django.asserts import assertContains

from donations import ledger
from donations.models import Gift
from donations.signing import manage_token
from payments.gateway import client as stripe_client
from payments.models import Refund
from sponsors.models import Payment, Sponsorship
from sponsors.services import applications
from tests.donations.factories import DonationFactory
from tests.localstripe import deliver_events
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import WEBHOOK_SECRET

pytestmark = pytest.mark.django_db(transaction=True)
CARD_ONCE = Sponsorship.Payment.CARD_ONCE


@pytest.fixture
def stripe_sends_events(settings, invoicing_localstripe_url, live_server):
    settings.STRIPE_API_BASE = invoicing_localstripe_url
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    deliver_events(invoicing_localstripe_url, f"{live_server.url}/stripe/webhook/")
    yield invoicing_localstripe_url
    deliver_events(invoicing_localstripe_url, "http://127.0.0.1:9/stripe/webhook/")


def wait_for(find, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("localstripe's event did not arrive")


def pay_at_stripe(amount_minor: int, currency: str, metadata: dict) -> str:
    """A card payment made at the fake, as the server makes one; its charge's id."""
    stripe = stripe_client().v1
    customer = stripe.customers.create({"email": "payer@example.org"}).id
    card = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2034, "cvc": "123"}
    method = stripe.payment_methods.create({"type": "card", "card": card}).id
    stripe.payment_methods.attach(method, {"customer": customer})
    intent = stripe.payment_intents.create(
        {
            "amount": amount_minor,
            "currency": currency.lower(),
            "customer": customer,
            "payment_method": method,
            "confirm": True,
            "metadata": metadata,
        }
    )
    return intent.to_dict()["latest_charge"]["id"]


def refund_at_stripe(charge_id: str, amount_minor: int):
    stripe_client().v1.refunds.create({"charge": charge_id, "amount": amount_minor})


def donor_income(year):
    return sum(
        (entry.amount for entry in ledger.entries(year) if entry.category == ledger.DONORS),
        Decimal(0),
    )


def test_a_gift_refunded_at_stripe_leaves_the_figures_and_the_donors_page(
    client, stripe_sends_events
):
    donation = DonationFactory(amount=Decimal("40.00"))
    charge = pay_at_stripe(4000, "EUR", {"donation": str(donation.reference)})
    gift = wait_for(lambda: Gift.objects.first())
    year = gift.paid_at.year
    assert donor_income(year) == Decimal("40.00")

    refund_at_stripe(charge, 1500)  # a partial refund, then the rest
    wait_for(lambda: Refund.objects.filter(payment=gift, amount_minor=1500).exists())
    assert donor_income(year) == Decimal("25.00")
    page = client.get(f"/donate/manage/{manage_token(donation.reference)}/")
    assertContains(page, "<td>€40 (€15 refunded)</td>", html=True)

    refund_at_stripe(charge, 2500)  # (localstripe's refund without amount takes it all again)
    wait_for(lambda: Refund.objects.filter(payment=gift, amount_minor=4000).exists())
    assert donor_income(year) == Decimal("0.00")
    funding = client.get(f"/funding/?year={year}")
    assert "individual donor gave" not in funding.content.decode()


def test_a_sponsorship_payment_refunded_at_stripe_leaves_the_dashboard_and_the_figures(
    client, stripe_sends_events
):
    organisation = OrganisationFactory()
    manager = organisation.managers.get()
    sponsorship = applications.apply(
        organisation, TierFactory(annual_price=Decimal("1000")), CARD_ONCE, manager
    )
    charge = pay_at_stripe(100000, "EUR", {"sponsorship": str(sponsorship.pk)})
    payment = wait_for(lambda: Payment.objects.first())
    year = payment.paid_at.year
    sponsors = [e for e in ledger.entries(year) if e.category == "sponsor"]
    assert sum(e.amount for e in sponsors) == Decimal("1000.00")
    sponsorship.refresh_from_db()
    assert sponsorship.is_paid

    refund_at_stripe(charge, 25000)
    wait_for(lambda: Refund.objects.filter(payment=payment).exists())
    sponsors = [e for e in ledger.entries(year) if e.category == "sponsor"]
    assert sum(e.amount for e in sponsors) == Decimal("750.00")
    client.force_login(manager)
    dashboard = client.get("/sponsors/dashboard/")
    assertContains(dashboard, "(€250 refunded)")
