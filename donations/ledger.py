"""The funding page's ledger: every income and every expense of a year as one list of entries.

Income is the payments app's one ledger (``payments.ledger``): every payment for a
sponsorship or a gift, less what refunds and disputes took back, described by the app it
paid for (sponsors registers its sponsorships; this module describes donations, through
``describe_donations``), so donations never imports sponsors. Expenses are ``Expense`` rows
that staff record. The funding page and its CSV are built from these entries only.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models.functions import ExtractYear
from django.utils import timezone

from donations.models import Donation, Expense
from payments import ledger

INCOME = "income"
SPENDING = "spending"
DONORS = "donor"


@dataclass(frozen=True)
class LedgerEntry:
    on: date
    flow: str  # INCOME or SPENDING
    category: str  # a programme kind, DONORS, or an Expense.Category
    contributor: str  # who gave (income only): an organisation or a donor's address
    amount: Decimal  # refunds are negative income
    currency: str
    demo: bool = False
    description: str = ""  # the public line (sponsors' payments, expenses); "" for gifts

    @property
    def month(self) -> str:
        return f"{self.on:%Y-%m}"


def _day(moment) -> date:
    return timezone.localdate(moment) if hasattr(moment, "tzinfo") else moment


def describe_donations(ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Per donation id: the donors' programme and the donor (registered with
    ``payments.income``); one donor is one address, whatever its case."""
    rows = Donation.objects.filter(pk__in=list(ids)).values_list("pk", "email")
    return {pk: (DONORS, f"donor:{email.lower()}") for pk, email in rows}


def entries(year: int) -> list[LedgerEntry]:
    """The year's ledger, oldest first: the payments ledger's income (refunds and disputes
    negative), then the expenses."""
    found = [
        LedgerEntry(
            _day(paid.paid_at),
            INCOME,
            paid.programme,
            paid.contributor,
            paid.amount,
            paid.currency.upper(),
            paid.demo,
            paid.label,  # a refund's or dispute's line says so
        )
        for paid in ledger.income_in(year)
    ]
    expenses = Expense.objects.filter(spent_on__year=year).values_list(
        "spent_on", "category", "amount", "currency", "is_demo", "description"
    )
    for spent_on, category, amount, currency, demo, description in expenses:
        found.append(
            LedgerEntry(
                spent_on, SPENDING, category, "", amount, currency.upper(), demo, description
            )
        )
    return sorted(found, key=lambda entry: entry.on)


def years_with_entries() -> list[int]:
    """Every year the ledger holds something in, and the current year, newest first."""
    spent = (
        Expense.objects.order_by()
        .annotate(year=ExtractYear("spent_on"))
        .values_list("year", flat=True)
        .distinct()
    )
    return sorted({timezone.localdate().year, *spent, *ledger.years_with_income()}, reverse=True)
