"""Demo sponsorships are labelled wherever they are shown: their prices, terms and
payments are demo content, though the sponsors' names and tiers are the real list."""

from decimal import Decimal

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from tests.sponsors.benefits.factories import SponsorshipFactory
from tests.sponsors.factories import PaymentFactory

pytestmark = pytest.mark.django_db
PAGES = ["/supporters/", "/sponsors/", "/"]


def pay(sponsorship, demo):
    PaymentFactory(
        sponsorship=sponsorship,
        stripe_id=f"pay-{sponsorship.pk}-{demo}",
        amount=Decimal("50000"),
        currency="EUR",
        paid_at=timezone.now(),
        is_demo=demo,
    )


def test_real_payments_carry_no_demo_label(client):
    pay(SponsorshipFactory(), demo=False)
    for url in PAGES:
        assertNotContains(client.get(url), "Demo data")


def test_demo_payments_are_labelled_on_every_page_that_shows_sponsors(client):
    pay(SponsorshipFactory(), demo=True)
    notice = "the prices, terms and payments on this site are demo content, and no money moved."
    assertContains(client.get("/supporters/"), notice)
    programmes = client.get("/sponsors/")
    assertContains(programmes, notice)
    assertContains(programmes, "The tier prices below are demo figures")
    assertContains(
        client.get("/"),
        '<span class="card-meta">Demo data: these sponsors\' terms and payments on this site are demo content.</span>',
        html=True,
    )
