"""The public funding page: income by month and programme that no single gift can be read from."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from donations.funding import OTHER, Contribution, publishable_rows
from donations.signing import manage_token
from sponsors.models import Sponsorship
from tests.donations.factories import FundingGoalFactory, GiftFactory
from tests.sponsors.factories import (
    OrganisationFactory,
    PaymentFactory,
    ProgrammeFactory,
    TierFactory,
)

MARCH = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
APRIL = datetime(2026, 4, 2, 12, 0, tzinfo=UTC)


def contributions(row, programme, amounts):
    return [
        Contribution(row, programme, f"{programme}-{i}", Decimal(a)) for i, a in enumerate(amounts)
    ]


def test_cells_with_enough_contributors_are_published():
    [row] = publishable_rows(contributions("2026-03", "donor", [10, 20, 30]), ["donor"], minimum=3)
    assert row.cells == {"donor": Decimal(60)}
    assert row.total == Decimal(60)


def test_small_cells_are_combined_and_withheld_when_still_small():
    items = contributions("2026-03", "donor", [1] * 5) + contributions(
        "2026-03", "member", [500, 700]
    )
    [row] = publishable_rows(items, ["sponsor", "member", "donor"], minimum=5)
    assert row.cells == {"sponsor": 0, "donor": Decimal(5), OTHER: None}
    assert row.withheld
    assert row.total is None  # the total minus the donors would give the members away


def test_small_cells_combined_into_enough_contributors_are_published():
    items = contributions("2026-03", "member", [100, 200, 300]) + contributions(
        "2026-03", "sponsor", [1000, 2000]
    )
    [row] = publishable_rows(items, ["sponsor", "member", "donor"], minimum=5)
    assert row.cells == {"donor": 0, OTHER: Decimal(3600)}  # merged programmes have no cell
    assert row.total == Decimal(3600)


def test_the_same_contributor_twice_counts_once():
    items = [Contribution("2026-03", "donor", "ada", Decimal(5))] * 4
    [row] = publishable_rows(items, ["donor"], minimum=2)
    assert row.cells == {OTHER: None}


def sponsor_payment(kind, amount, when):
    programme = ProgrammeFactory(kind=kind, name=kind.title())
    sponsorship = Sponsorship.objects.create(
        organisation=OrganisationFactory(),
        tier=TierFactory(programme=programme),
        payment_method=Sponsorship.Payment.CARD_ONCE,
        terms={},
    )
    PaymentFactory(
        sponsorship=sponsorship,
        stripe_id=f"pi_{sponsorship.pk}",
        amount=amount,
        currency="EUR",
        paid_at=when,
    )


class FundingPageTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        for amount in (10, 20, 30, 40, 50):
            GiftFactory(donation__amount=amount, paid_at=MARCH)
        GiftFactory(donation__amount=500, paid_at=APRIL)
        sponsor_payment("member", Decimal("5000"), MARCH)
        FundingGoalFactory(amount=Decimal("1000"), description="two release engineers")

    def test_published_figures_withheld_ones_and_the_goal(self):
        with self.settings(FUNDING_MIN_CONTRIBUTORS=5):
            response = self.client.get("/funding/?year=2026")
        self.assertEqual(response.status_code, 200)
        self.assertContains(
            response, '<td class="num" data-label="Individual donors">€150</td>', html=True
        )
        self.assertContains(
            response,
            '<td class="num" data-label="Smaller programmes combined"><span class="withheld">withheld</span></td>',
            html=True,
        )
        self.assertNotContains(response, "5,000")
        self.assertNotContains(response, "500.00")  # April's single gift
        self.assertContains(
            response,
            '<p class="facts-line"><strong>6</strong> individual donors gave in 2026.</p>',
            html=True,
        )
        self.assertContains(response, "of the 2026 goal of €1,000: two release engineers")
        self.assertContains(response, "<strong>At least 65%</strong>", html=True)

    def test_the_csv_has_the_same_figures(self):
        with self.settings(FUNDING_MIN_CONTRIBUTORS=5):
            response = self.client.get("/funding.csv?year=2026")
            year = self.client.get("/funding-years.csv?year=2026").content.decode()
        self.assertEqual(response["Content-Type"], "text/csv; charset=utf-8")
        lines = response.content.decode().splitlines()
        self.assertEqual(
            lines[0], "month,currency,flow,category,amount,amount_withheld,includes_demo_data"
        )
        # one figure a row: a withheld one is an empty amount beside amount_withheld true;
        # no total rows, no year rows among the months
        march = [line for line in lines if line.startswith("2026-03,EUR,income,")]
        self.assertEqual(
            march,
            [
                "2026-03,EUR,income,Sponsors,0.00,false,false",
                "2026-03,EUR,income,Individual donors,150.00,false,false",
                "2026-03,EUR,income,Smaller programmes combined,,true,false",
            ],
        )
        self.assertIn("2026-04,EUR,income,Smaller programmes combined,,true,false", lines)
        self.assertNotIn("Total", response.content.decode())
        self.assertFalse([line for line in lines[1:] if not line.startswith("2026-")])
        # the year's figures in their own file
        self.assertEqual(
            year.splitlines()[0],
            "year,currency,flow,category,amount,amount_withheld,includes_demo_data",
        )
        self.assertIn("2026,EUR,income,Individual donors,650.00,false,false", year.splitlines())
        self.assertNotIn("Total", year)
        for text in (response.content.decode(), year):
            self.assertNotIn("5000.00", text)
            self.assertNotIn("500.00", text)

    def test_a_goal_in_a_currency_nobody_gave_in_reads_as_nothing_given(self):
        # "yet" is said of the current year only, whatever day the suite runs on
        this_year = timezone.localdate().year
        FundingGoalFactory(
            year=this_year, currency="USD", amount=Decimal("1000"), description="a USD goal"
        )
        page = self.client.get(f"/funding/?year={this_year}")
        self.assertContains(page, f"No income recorded in USD for {this_year} yet.")
        for url in (f"/funding.csv?year={this_year}", f"/funding-years.csv?year={this_year}"):
            text = self.client.get(url).content.decode()
            self.assertNotIn(",USD,", text)  # no figure, no row (and never a Total row)

    def test_a_past_year_is_offered_and_spoken_of_in_the_past(self):
        page = self.client.get("/funding/?year=2024")
        self.assertContains(page, "<h1>Funding in 2024</h1>", html=True)
        self.assertContains(page, '<option value="2024" selected>2024</option>', html=True)
        self.assertContains(page, "No gift from an individual was recorded in 2024.")
        self.assertNotContains(page, "Be the first")
        self.assertContains(page, "No income recorded for 2024.")

    def test_the_page_reads_a_bounded_number_of_queries(self):
        for amount in range(60, 100):
            GiftFactory(donation__amount=amount, paid_at=APRIL)
        with CaptureQueriesContext(connection) as queries:
            self.client.get("/funding/?year=2026")
        # A fixed number, whatever the rows: the payments ledger's payments, what refunds
        # and disputes took back, one description per kind of payer, the years; expenses,
        # goals, the donor wall.
        self.assertLessEqual(len(queries), 10)

    def test_hostile_years_are_not_found(self):
        for year in ("abc", "1999", "3000", "2026%00", "٢٠٢٦"):
            self.assertEqual(self.client.get("/funding/", {"year": year}).status_code, 404)


@pytest.mark.django_db
def test_the_donor_wall_shows_only_names_donors_chose(client):
    GiftFactory(donation__public_name="Grace H.", donation__show_on_wall=True, paid_at=MARCH)
    GiftFactory(donation__public_name="Secret", donation__show_on_wall=False, paid_at=MARCH)
    page = client.get("/funding/?year=2026").content.decode()
    assert "Grace H." in page
    assert "Secret" not in page


@pytest.mark.django_db
def test_a_recorded_gift_rebuilds_the_shared_funding_page(settings):
    settings.FUNDING_MIN_CONTRIBUTORS = 1
    first = Client().get("/funding/?year=2026")
    assert "Grace H." not in first.content.decode()
    GiftFactory(donation__public_name="Grace H.", donation__show_on_wall=True, paid_at=MARCH)
    assert "Grace H." in Client().get("/funding/?year=2026").content.decode()


@pytest.mark.django_db
def test_a_donors_manage_page_is_never_shared(client):
    gift = GiftFactory()
    url = f"/donate/manage/{manage_token(gift.donation.reference)}/"
    response = Client().get(url)
    assert response.status_code == 200
    assert "public" not in response.get("Cache-Control", "")
