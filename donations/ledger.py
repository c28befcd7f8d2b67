"""One ledger: every income and every expense of a year as one list of entries.

Income is read where it is recorded (sponsorship payments and paid invoices through the
income sources registered with ``payments.income``, so donations never imports sponsors;
one-off and monthly gifts in ``Gift``, refunds in ``Refund``);
expenses are ``Expense`` rows that staff record. The funding page and its CSV are
built from these entries only.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import F
from django.db.models.functions import ExtractYear
from django.utils import timezone

from donations.models import Expense, Gift, Refund
from payments import income

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


def entries(year: int) -> list[LedgerEntry]:
    """The year's ledger, oldest first (one query per income source, gifts, refunds, expenses)."""
    found = []
    for paid in income.received_in(year):
        found.append(
            LedgerEntry(
                _day(paid.paid_at),
                INCOME,
                paid.programme,
                paid.contributor,
                paid.amount,
                paid.currency.upper(),
                paid.demo,
                paid.description,
            )
        )
    gifts = Gift.objects.filter(paid_at__year=year).values_list(
        "paid_at", "currency", "amount", F("donation__email")
    )
    for paid_at, currency, amount, email in gifts:
        found.append(
            LedgerEntry(
                _day(paid_at), INCOME, DONORS, f"donor:{email.lower()}", amount, currency.upper()
            )
        )
    refunds = Refund.objects.filter(refunded_at__year=year, donation__isnull=False).values_list(
        "refunded_at", "currency", "amount", F("donation__email")
    )
    for refunded_at, currency, amount, email in refunds:
        found.append(
            LedgerEntry(
                _day(refunded_at),
                INCOME,
                DONORS,
                f"donor:{email.lower()}",
                -amount,
                currency.upper(),
            )
        )
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

    def years(queryset, field):
        return queryset.order_by().annotate(year=ExtractYear(field)).values_list("year", flat=True)

    found = years(Gift.objects, "paid_at").union(years(Expense.objects, "spent_on"))
    return sorted({timezone.localdate().year, *found, *income.years_with_income()}, reverse=True)
