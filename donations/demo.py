"""Demo spending beside the demo sponsors' payments (sponsors.demo), so that /funding/
shows income and spending as it will in production. Every row is flagged ``is_demo``,
described as demo content on the page and in the CSV: these are not the foundation's
accounts, and no money was spent."""

from decimal import Decimal

from django.utils import timezone

from donations.models import Expense

# (category, description, amount in EUR): demo figures, one per category staff record.
DEMO_EXPENSES = [
    (Expense.Category.ENGINEERING, "Demo: engineering staff and contractors", Decimal("360000")),
    (Expense.Category.INFRASTRUCTURE, "Demo: build machines, CI and the download origin", Decimal("24000")),
    (Expense.Category.COMMUNITY, "Demo: community events and travel", Decimal("30000")),
    (Expense.Category.ADMINISTRATION, "Demo: accounting, legal and banking", Decimal("36000")),
]  # fmt: skip


def load(log):
    today = timezone.localdate()
    created = 0
    for category, description, amount in DEMO_EXPENSES:
        _, made = Expense.objects.get_or_create(
            is_demo=True,
            description=description,
            defaults={"category": category, "amount": amount, "currency": "EUR", "spent_on": today},
        )
        created += made
    log(f"donations: {created} demo expenses recorded ({len(DEMO_EXPENSES)} in all)")
