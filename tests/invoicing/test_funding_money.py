"""/funding/ shows the money: income and spending per month and year as figures, set
against each other; a goal with its progress on /funding/ and /donate/; every sponsorship
payment and expense line by line (donors only together, never named with an amount); the
Data Package link keeps its year; the demo spreads its entries over the year."""

import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from donations import demo as donations_demo
from donations.models import Expense
from payments.models import Dispute, Refund
from sponsors import demo as sponsors_demo
from sponsors.models import Payment
from tests.donations.factories import (
    DonationFactory,
    ExpenseFactory,
    FundingGoalFactory,
    GiftFactory,
)
from tests.sponsors.factories import (
    ActiveSponsorshipFactory,
    OrganisationFactory,
    PaymentFactory,
)

pytestmark = pytest.mark.django_db
YEAR = timezone.localdate().year


def _paid(name, month, amount="50000"):
    sponsorship = ActiveSponsorshipFactory(organisation=OrganisationFactory(name=name))
    PaymentFactory(
        sponsorship=sponsorship,
        stripe_id=f"pi_{name}",
        amount=Decimal(amount),
        currency="EUR",
        paid_at=datetime(YEAR, month, 3, 12, tzinfo=UTC),
    )


@pytest.fixture
def year_of_money(db):
    _paid("Acme Databases", 1)
    _paid("Beispiel GmbH", 3)
    GiftFactory(
        donation=DonationFactory(email="ada@example.org", public_name="Ada", amount=Decimal(40)),
        paid_at=datetime(YEAR, 3, 9, tzinfo=UTC),
    )
    ExpenseFactory(
        spent_on=date(YEAR, 3, 20),
        category=Expense.Category.INFRASTRUCTURE,
        description="Build farm hosting, March",
        amount=Decimal("1200"),
    )


def test_each_month_and_the_year_are_figures_set_against_spending(client, year_of_money):
    page = client.get(f"/funding/?year={YEAR}")
    assertNotContains(page, '<span class="withheld">')
    content = page.content.decode()
    assert "€100,040" in content  # the year's income
    assertContains(
        page,
        '<td class="num" data-label="Income less spending">€98,840</td>',
        html=True,
    )
    assertContains(page, '<td class="num" data-label="Total">€50,040</td>', html=True)  # March


def test_every_sponsorship_payment_and_expense_is_listed_and_donors_only_together(
    client, year_of_money
):
    page = client.get(f"/funding/?year={YEAR}")
    assertContains(page, "Gold sponsor: Beispiel GmbH")
    assertContains(page, '<td class="num" data-label="Amount">+€50,000</td>', html=True)
    assertContains(page, "Build farm hosting, March")
    assertContains(page, '<td class="num" data-label="Amount">−€1,200</td>', html=True)
    assertContains(page, f"Individual donors, {YEAR}-03: 1 gift, refunds deducted")
    assertNotContains(page, "ada@example.org")


def test_the_goal_and_its_progress_on_funding_and_donate(client, year_of_money):
    FundingGoalFactory(year=YEAR, currency="EUR", amount=Decimal("200080"))
    for url in (f"/funding/?year={YEAR}", "/donate/"):
        page = client.get(url)
        assertContains(page, "<strong>50%</strong>", html=True)
        assertContains(page, "€100,040")


def test_the_data_package_keeps_its_year(client, year_of_money):
    answer = client.get(f"/funding/datapackage.json?year={YEAR - 1}")
    assert answer.status_code == 200
    assert answer.json()["name"] == f"mariadb-foundation-funding-{YEAR - 1}"


def test_the_demo_spreads_income_and_spending_over_the_year():
    sponsors_demo.load(lambda message: None)
    donations_demo.load(lambda message: None)
    today = timezone.localdate()
    paid_days = {p.paid_at.date() for p in Payment.objects.demo()}
    assert all(day.year == today.year and day <= today for day in paid_days)
    spent_months = {e.spent_on.month for e in Expense.objects.filter(is_demo=True)}
    assert spent_months == set(range(1, today.month + 1))
    if today.month > 1:
        assert len({day.month for day in paid_days}) > 1
    assert all(e.description.startswith("Demo:") for e in Expense.objects.filter(is_demo=True))


def test_money_taken_back_is_labelled_on_its_ledger_line(client, year_of_money):
    """Issue 60: a refund lowered /funding/ but its line read like a payment. Each line of
    money taken back says how: a refund, or a dispute lost."""
    beispiel, acme = (
        Payment.objects.get(stripe_id="pi_Beispiel GmbH"),
        Payment.objects.get(stripe_id="pi_Acme Databases"),
    )
    Refund.objects.create(
        payment=beispiel,
        stripe_charge_id="ch_beispiel",
        amount_minor=beispiel.amount_minor,
        currency="EUR",
        refunded_at=datetime(YEAR, 3, 5, 12, tzinfo=UTC),
    )
    Dispute.objects.create(
        payment=acme,
        stripe_id="dp_acme",
        amount_minor=acme.amount_minor // 2,
        currency="EUR",
        status="lost",
        opened_at=datetime(YEAR, 1, 10, 12, tzinfo=UTC),
    )
    page = client.get(f"/funding/?year={YEAR}")
    rows = [
        (what, amount)
        for what, amount in re.findall(
            r'data-label="What">([^<]*)</td>.*?data-label="Amount">([^<]*)</td>',
            page.content.decode(),
        )
    ]
    assert ("Refund: Gold sponsor: Beispiel GmbH", "−€50,000") in rows
    assert ("Taken back by a dispute: Gold sponsor: Acme Databases", "−€25,000") in rows
    assert ("Gold sponsor: Beispiel GmbH", "+€50,000") in rows  # the payment itself
    assert not [what for what, amount in rows if amount.startswith("−€") and ":" in what
                and not what.startswith(("Refund", "Taken back"))]  # fmt: skip
