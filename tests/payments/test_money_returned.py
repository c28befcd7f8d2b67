"""Issue 46: money that went back in full is not shown as given. A sponsorship whose
payment for the term was refunded in full (or lost to a dispute) leaves /supporters/ and
its dashboard says "Refunded" with the amount, never "Paid"; a donor whose every gift was
refunded leaves the donor wall; the year's totals count none of it. Part of the money
back, or a dispute the foundation won, changes none of that."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from donations import ledger
from donations.models import Donation
from tests.donations.factories import DonationFactory
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import ActiveSponsorshipFactory, OrganisationFactory, PaymentFactory
from tests.sponsors.helpers import WEBHOOK_SECRET, event, signed

pytestmark = pytest.mark.django_db
MARCH_2024 = 1710000000  # 2024-03-09


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


def refunded(intent, refunded_minor, charged_minor, event_id="evt_refund"):
    obj = {
        "id": f"ch_{intent}",
        "object": "charge",
        "payment_intent": intent,
        "amount": charged_minor,
        "amount_refunded": refunded_minor,
        "currency": "eur",
        "created": MARCH_2024,
    }
    return {**event(event_id, "charge.refunded", obj), "created": MARCH_2024 + 3600}


def disputed(intent, amount_minor, status):
    obj = {
        "id": f"dp_{intent}",
        "object": "dispute",
        "charge": f"ch_{intent}",
        "payment_intent": intent,
        "amount": amount_minor,
        "currency": "eur",
        "status": status,
        "created": MARCH_2024,
    }
    return event(f"evt_dispute_{status}", "charge.dispute.closed", obj)


# How the money went back, and whether all of it did.
TAKEN_BACK = {
    "refunded-in-full": ([lambda i, m: refunded(i, m, m)], True),
    "lost-dispute": ([lambda i, m: disputed(i, m, "lost")], True),
    "part-refund-then-lost-dispute-of-the-rest": (
        [lambda i, m: refunded(i, m // 4, m), lambda i, m: disputed(i, m - m // 4, "lost")],
        True,
    ),
    "refunded-in-part": ([lambda i, m: refunded(i, m - 1, m)], False),
    "won-dispute": ([lambda i, m: disputed(i, m, "won")], False),
}


@pytest.fixture
def manager():
    return UserFactory()


@pytest.fixture
def sponsorship(manager):
    organisation = OrganisationFactory(name="Refundia Oy", managers=[manager])
    sponsorship = ActiveSponsorshipFactory(
        organisation=organisation, payment_method="card_once", paid_at=timezone.now()
    )
    PaymentFactory(
        sponsorship=sponsorship, stripe_id="pi_sp", payment_intent_id="pi_sp", amount=Decimal(500)
    )
    return sponsorship


@pytest.mark.parametrize("case", TAKEN_BACK, ids=list(TAKEN_BACK))
def test_a_sponsorship_paid_back_in_full_leaves_the_supporters_page(
    client, post, sponsorship, manager, case
):
    events, in_full = TAKEN_BACK[case]
    assertContains(client.get("/supporters/"), "Refundia Oy")  # now cached
    for make in events:
        assert post(make("pi_sp", 50000)) == "processed"
    supporters = client.get("/supporters/")
    client.force_login(manager)
    dashboard = client.get("/sponsors/dashboard/")
    if in_full:
        assertNotContains(supporters, "Refundia Oy")
        assertContains(dashboard, '<span class="badge badge-active">Refunded</span>', html=True)
        assertContains(dashboard, "Refunded: €500, the whole payment of")
        assertNotContains(dashboard, "Nothing to do")
    else:
        assertContains(supporters, "Refundia Oy")
        assertContains(dashboard, '<span class="badge badge-active">Active</span>', html=True)
        assertNotContains(dashboard, "Refunded:")


def test_only_the_latest_payment_decides_a_renewed_sponsorship(client, post, sponsorship):
    """Last year's payment was kept; this year's, paying for the term, went back."""
    PaymentFactory(
        sponsorship=sponsorship,
        stripe_id="pi_renewal",
        payment_intent_id="pi_renewal",
        amount=Decimal(500),
        paid_at=timezone.now() + timedelta(seconds=1),
    )
    assert post(refunded("pi_renewal", 50000, 50000)) == "processed"
    assertNotContains(client.get("/supporters/"), "Refundia Oy")


def test_an_application_paid_then_refunded_does_not_say_paid(client, post, manager):
    organisation = OrganisationFactory(managers=[manager])
    application = ActiveSponsorshipFactory(
        organisation=organisation,
        status="applied",
        payment_method="card_once",
        paid_at=timezone.now(),
    )
    PaymentFactory(
        sponsorship=application,
        stripe_id="pi_app",
        payment_intent_id="pi_app",
        amount=Decimal(500),
    )
    client.force_login(manager)
    assertContains(client.get("/sponsors/dashboard/"), "Paid on ")
    assert post(refunded("pi_app", 50000, 50000)) == "processed"
    dashboard = client.get("/sponsors/dashboard/")
    assertNotContains(dashboard, "Paid on ")
    assertNotContains(dashboard, "thank you")
    assertContains(dashboard, "Refunded: €500, the whole payment of")


def gift_paid(donation, intent):
    obj = {
        "id": intent,
        "object": "payment_intent",
        "amount_received": 2000,
        "currency": "eur",
        "created": MARCH_2024,
        "metadata": {"donation": str(donation.reference)},
    }
    return event(f"evt_{intent}", "payment_intent.succeeded", obj)


def donors_2024() -> Decimal:
    entries = ledger.entries(2024)
    return sum((e.amount for e in entries if e.category == ledger.DONORS), Decimal(0))


@pytest.mark.parametrize("case", TAKEN_BACK, ids=list(TAKEN_BACK))
def test_a_donor_whose_gifts_all_went_back_leaves_the_donor_wall(client, post, case):
    events, in_full = TAKEN_BACK[case]
    donation = DonationFactory(amount=Decimal(20), show_on_wall=True, public_name="Grace Giver")
    assert post(gift_paid(donation, "pi_gift")) == "processed"
    assertContains(client.get("/supporters/"), "Grace Giver")
    for make in events:
        assert post(make("pi_gift", 2000)) == "processed"
    wall = client.get("/supporters/")
    if in_full:
        assertNotContains(wall, "Grace Giver")
        assert list(Donation.objects.on_donor_wall()) == []
        assert donors_2024() == Decimal(0)  # the ledger already took it back
    else:
        assertContains(wall, "Grace Giver")
        assert donors_2024() > 0


def test_a_monthly_donor_with_one_gift_kept_stays_on_the_wall(post):
    donation = DonationFactory(
        amount=Decimal(20), frequency="monthly", show_on_wall=True, public_name="Monthly Mo"
    )
    for invoice in ("in_1", "in_2"):
        obj = {
            "id": invoice,
            "object": "invoice",
            "amount_paid": 2000,
            "currency": "eur",
            "created": MARCH_2024,
            "payment_intent": f"pi_{invoice}",
            "metadata": {"donation": str(donation.reference)},
        }
        assert post(event(f"evt_{invoice}", "invoice.paid", obj)) == "processed"
    assert post(refunded("pi_in_1", 2000, 2000)) == "processed"
    assert list(Donation.objects.on_donor_wall()) == [donation]
    assert post(refunded("pi_in_2", 2000, 2000, event_id="evt_refund_2")) == "processed"
    assert list(Donation.objects.on_donor_wall()) == []


def test_staff_find_the_sponsorships_to_end_in_the_admin(admin_client, post, sponsorship):
    kept = ActiveSponsorshipFactory(organisation=OrganisationFactory(name="Keepsake AB"))
    PaymentFactory(sponsorship=kept, stripe_id="pi_kept", payment_intent_id="pi_kept")
    assert post(refunded("pi_sp", 50000, 50000)) == "processed"
    listed = admin_client.get("/admin/sponsors/sponsorship/?returned=yes")
    assertContains(listed, "Refundia Oy")
    assertNotContains(listed, "Keepsake AB")
