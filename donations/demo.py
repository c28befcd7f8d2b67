"""Demo spending beside the demo sponsors' payments (sponsors.demo), so that /funding/
shows income and spending as it will in production: each category's demo budget spread
month by month from January to this month, and a demo goal for the year. Every row is
flagged ``is_demo`` or described as demo content, on the page and in the CSV: these are
not the foundation's accounts, and no money was spent."""

from datetime import date
from decimal import Decimal

from core import demo
from donations.models import Expense, FundingGoal

# (category, description, a year's amount in EUR): demo figures, one per category staff
# record; each month of the year so far is booked a twelfth of it.
DEMO_EXPENSES = [
    (Expense.Category.ENGINEERING, "Demo: engineering staff and contractors", Decimal("360000")),
    (Expense.Category.INFRASTRUCTURE, "Demo: build machines, CI and the download origin", Decimal("24000")),
    (Expense.Category.COMMUNITY, "Demo: community events and travel", Decimal("30000")),
    (Expense.Category.ADMINISTRATION, "Demo: accounting, legal and banking", Decimal("36000")),
]  # fmt: skip
DEMO_GOAL = Decimal("1000000")


def months_so_far(today: date) -> list[date]:
    """The 15th of each month from January to this one (today, early in this month)."""
    return [
        date(today.year, month, 15)
        if month < today.month
        else today.replace(day=min(today.day, 15))
        for month in range(1, today.month + 1)
    ]


def load(log):
    today = demo.today()
    created = 0
    for category, description, amount in DEMO_EXPENSES:
        for day in months_so_far(today):
            _, made = Expense.objects.get_or_create(
                is_demo=True,
                description=f"{description}, {day:%B}",
                defaults={
                    "category": category,
                    "amount": (amount / 12).quantize(Decimal("0.01")),
                    "currency": "EUR",
                    "spent_on": day,
                },
            )
            created += made
    FundingGoal.objects.get_or_create(
        year=today.year,
        currency="EUR",
        defaults={
            "amount": DEMO_GOAL,
            "description": "Demo goal: a demo figure, not the foundation's budget",
        },
    )
    log(f"donations: {created} demo expenses recorded, and a demo goal")
