"""The public funding page's figures, read from sponsorship payments and gifts.

Everything published goes through ``funding.publishable_rows``: a month or a year shows
a programme's income only when enough different contributors gave to it.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db.models import F

from donations.funding import OTHER, Contribution, Row, goal_progress, publishable_rows
from donations.models import Donation, FundingGoal, Gift, Refund
from payments import income

DONORS = "donor"


def programme_labels() -> dict[str, str]:
    """The programmes of the registered income sources (sponsors, members), then donors."""
    return {
        **income.programmes(),
        DONORS: "Individual donors",
        OTHER: "Smaller programmes combined",
    }


def programmes() -> list[str]:
    return [*income.programmes(), DONORS]


@dataclass(frozen=True)
class Cell:
    label: str
    value: Decimal | None
    state: str  # "shown", "withheld" or "none"


def cells_of(row: Row, columns: list[tuple[str, str]]) -> list[Cell]:
    """The row's cells in column order, as the table and the CSV show them."""
    cells = []
    for key, label in columns:
        if key not in row.cells:
            cells.append(Cell(label, None, "none"))
        elif row.cells[key] is None:
            cells.append(Cell(label, None, "withheld"))
        else:
            cells.append(Cell(label, row.cells[key], "shown"))
    return cells


@dataclass
class CurrencyTable:
    currency: str
    rows: list[Row]
    year: Row
    goal: FundingGoal | None = None
    progress: int = 0
    chart: dict = field(default_factory=dict)
    display_rows: list[tuple[Row, list[Cell]]] = field(default_factory=list)
    display_year: list[Cell] = field(default_factory=list)


@dataclass
class FundingReport:
    year: int
    minimum: int
    tables: list[CurrencyTable] = field(default_factory=list)
    donors: int = 0
    donor_wall: list[str] = field(default_factory=list)

    @property
    def column_keys(self) -> list[str]:
        return [*programmes(), OTHER]

    @property
    def columns(self) -> list[tuple[str, str]]:
        labels = programme_labels()
        return [(key, labels[key]) for key in self.column_keys]


def _contributions(year: int) -> dict[str, list[tuple[str, str, str, Decimal]]]:
    """(month, programme, contributor, amount) per currency, refunds as negative amounts."""
    by_currency: dict[str, list] = {}
    for paid in income.received_in(year):
        by_currency.setdefault(paid.currency.upper(), []).append(
            (f"{paid.paid_at:%Y-%m}", paid.programme, paid.contributor, paid.amount)
        )
    gifts = Gift.objects.filter(paid_at__year=year).values_list(
        "paid_at", "currency", "amount", F("donation__email")
    )
    for paid_at, currency, amount, email in gifts:
        by_currency.setdefault(currency.upper(), []).append(
            (f"{paid_at:%Y-%m}", DONORS, f"donor:{email.lower()}", amount)
        )
    refunds = Refund.objects.filter(refunded_at__year=year, donation__isnull=False).values_list(
        "refunded_at", "currency", "amount", F("donation__email")
    )
    for refunded_at, currency, amount, email in refunds:
        by_currency.setdefault(currency.upper(), []).append(
            (f"{refunded_at:%Y-%m}", DONORS, f"donor:{email.lower()}", -amount)
        )
    return by_currency


def funding_report(year: int) -> FundingReport:
    minimum = settings.FUNDING_MIN_CONTRIBUTORS
    report = FundingReport(year=year, minimum=minimum)
    goals = {goal.currency: goal for goal in FundingGoal.objects.filter(year=year)}
    contributions = _contributions(year)
    for currency in sorted(set(contributions) | set(goals)):
        items = contributions.get(currency, [])
        monthly = [Contribution(month, kind, who, amount) for month, kind, who, amount in items]
        yearly = [Contribution(str(year), kind, who, amount) for _, kind, who, amount in items]
        [year_row] = publishable_rows(yearly, programmes(), minimum) or [Row(key=str(year))]
        table = CurrencyTable(
            currency=currency,
            rows=publishable_rows(monthly, programmes(), minimum),
            year=year_row,
            goal=goals.get(currency),
        )
        if table.goal is not None:
            published = sum((v for v in year_row.cells.values() if v is not None), Decimal(0))
            table.progress = goal_progress(published, table.goal.amount)
        report.tables.append(table)
    for table in report.tables:
        table.chart = chart_spec(table, report)
        table.display_rows = [(row, cells_of(row, report.columns)) for row in table.rows]
        table.display_year = cells_of(table.year, report.columns)
    report.donors = (
        Gift.objects.filter(paid_at__year=year).values("donation__email").distinct().count()
    )
    report.donor_wall = list(
        Donation.objects.on_donor_wall()
        .filter(gifts__paid_at__year=year)
        .order_by("public_name")
        .values_list("public_name", flat=True)
        .distinct()
    )
    return report


def chart_spec(table: CurrencyTable, report: FundingReport) -> dict:
    """The stacked monthly bar chart of one currency, in the shape static/js charts read."""
    datasets = [
        {
            "label": label,
            "data": [float(row.cells[key]) if row.cells.get(key) else 0 for row in table.rows],
        }
        for key, label in report.columns
        if any(row.cells.get(key) for row in table.rows)
    ]
    return {
        "id": f"funding-{table.currency.lower()}",
        "type": "bar",
        "stacked": True,
        "labels": [row.key for row in table.rows],
        "datasets": datasets,
    }
