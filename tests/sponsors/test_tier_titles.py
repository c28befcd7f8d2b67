"""A tier named after its programme is not named twice: "Corporate member 2026", not
"Corporate member member 2026", in the agreement, the dashboard and the supporters page."""

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from sponsors import agreements
from sponsors.models import tier_title
from tests.sponsors.benefits.factories import SponsorshipFactory
from tests.sponsors.factories import OrganisationFactory, ProgrammeFactory, TierFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("tier", "programme", "title"),
    [
        ("Gold", "sponsor", "Gold sponsor"),
        ("Corporate member", "member", "Corporate member"),
        ("Corporate Member", "member", "Corporate Member"),
        ("Membership", "member", "Membership member"),
    ],
)
def test_tier_title(tier, programme, title):
    assert tier_title(tier, programme) == title


def test_a_member_tier_reads_once_everywhere(client):
    members = ProgrammeFactory(kind="member", name="Commercial member")
    tier = TierFactory(programme=members, name="Corporate member", slug="corporate", year=2026)
    organisation = OrganisationFactory(name="Acme Audit Ltd")
    sponsorship = SponsorshipFactory(organisation=organisation, tier=tier)
    text = agreements.render(
        agreements.STANDARD_TEXT,
        organisation=organisation.name,
        terms=tier.terms(),
        payment_method="invoice",
    )
    assert "supports the foundation as a Corporate member." in text

    client.force_login(organisation.managers.get())
    dashboard = client.get("/sponsors/dashboard/")
    assertContains(dashboard, "<h3>Corporate member")
    assertNotContains(dashboard, "member member")
    assert sponsorship.title == "Corporate member"

    supporters = client.get("/supporters/")
    assertContains(supporters, f'<h2 id="tier-{tier.pk}">Corporate members</h2>', html=True)
