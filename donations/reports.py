"""The public funding page's figures, read from the ledger (``donations.ledger``).

Income goes through ``funding.publishable_rows``: a month or a year shows a programme's
income only when enough different contributors gave to it. Spending is the foundation's
own and is shown by month and category as recorded.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from core import opendata
from donations.funding import OTHER, Contribution, Row, goal_progress, publishable_rows
from donations.ledger import DONORS, INCOME, SPENDING, LedgerEntry, entries, years_with_entries
from donations.models import Donation, Expense, FundingGoal
from payments import income


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
    raised: Decimal = Decimal(0)
    chart: dict = field(default_factory=dict)
    display_rows: list[tuple[Row, list[Cell]]] = field(default_factory=list)
    display_year: list[Cell] = field(default_factory=list)


@dataclass
class SpendingTable:
    currency: str
    categories: list[tuple[str, str]]
    rows: list[tuple[str, list[tuple[str, Decimal]], Decimal]]  # month, (label, amount)s, total
    year: tuple[list[tuple[str, Decimal]], Decimal]
    chart: dict = field(default_factory=dict)


@dataclass
class FundingReport:
    year: int
    minimum: int
    tables: list[CurrencyTable] = field(default_factory=list)
    donors: int = 0
    donor_wall: list[str] = field(default_factory=list)
    spending: list[SpendingTable] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    demo_payments: int = 0
    demo_expenses: int = 0
    # (currency, month or year) of the income or spending rows that include demo entries.
    demo_periods: set[tuple[str, str]] = field(default_factory=set)
    demo_spending_periods: set[tuple[str, str]] = field(default_factory=set)
    # Every sponsorship payment and every expense, one a line; gifts, one line a month.
    transactions: list["Transaction"] = field(default_factory=list)
    # (currency, income or None when withheld, spending, income less spending or None)
    balances: list[tuple[str, Decimal | None, Decimal, Decimal | None]] = field(
        default_factory=list
    )

    @property
    def is_current_year(self) -> bool:
        """Whether the year is still under way (so "yet" and "be the first" are true)."""
        return self.year == timezone.localdate().year

    @property
    def column_keys(self) -> list[str]:
        return [*programmes(), OTHER]

    @property
    def columns(self) -> list[tuple[str, str]]:
        labels = programme_labels()
        return [(key, labels[key]) for key in self.column_keys]


@dataclass(frozen=True)
class Transaction:
    on: object  # a date, or the month's last day for a month's gifts
    description: str
    category: str
    amount: Decimal  # spending is negative
    currency: str
    demo: bool


def transactions(ledger: list[LedgerEntry], *, income_lines: bool = True) -> list[Transaction]:
    """The year line by line, newest first, as Open Collective lists a collective's
    transactions: each sponsorship payment (named: the supporters page thanks sponsors by
    name) and each expense as staff described it; individual donors' gifts only as one
    line a month, never one donor's gift as theirs. Without ``income_lines`` (a site that
    withholds small income figures, FUNDING_MIN_CONTRIBUTORS > 1) only the expenses."""
    labels = {**programme_labels(), **dict(Expense.Category.choices)}
    lines = []
    gifts: dict[tuple[str, str], list[LedgerEntry]] = {}
    for item in ledger:
        if item.flow == INCOME and not income_lines:
            continue
        if item.flow == INCOME and item.category == DONORS:
            gifts.setdefault((item.month, item.currency), []).append(item)
            continue
        sign = -1 if item.flow == SPENDING else 1
        lines.append(
            Transaction(
                item.on,
                item.description or labels.get(item.category, item.category),
                labels.get(item.category, item.category),
                sign * item.amount,
                item.currency,
                item.demo,
            )
        )
    for (month, currency), items in gifts.items():
        count = sum(1 for item in items if item.amount > 0)
        lines.append(
            Transaction(
                max(item.on for item in items),
                f"Individual donors, {month}: {count} gift{'s' if count != 1 else ''}, "
                "refunds deducted",
                labels[DONORS],
                sum((item.amount for item in items), Decimal(0)),
                currency,
                any(item.demo for item in items),
            )
        )
    return sorted(lines, key=lambda line: line.on, reverse=True)


@dataclass(frozen=True)
class GoalSummary:
    goal: FundingGoal
    raised: Decimal
    progress: int


def goal_summary(year: int, currency: str) -> GoalSummary | None:
    """The year's goal in ``currency`` and the income toward it (for /donate/)."""
    goal = FundingGoal.objects.filter(year=year, currency=currency.upper()).first()
    if goal is None:
        return None
    raised = sum(
        (
            item.amount
            for item in entries(year)
            if item.flow == INCOME and item.currency == goal.currency
        ),
        Decimal(0),
    )
    return GoalSummary(goal, raised, goal_progress(raised, goal.amount))


def spending_table(currency: str, items: list[LedgerEntry]) -> SpendingTable:
    used = {item.category for item in items}
    categories = [(key, label) for key, label in Expense.Category.choices if key in used]
    by_month: dict[str, dict[str, Decimal]] = {}
    for item in items:
        cells = by_month.setdefault(item.month, {})
        cells[item.category] = cells.get(item.category, Decimal(0)) + item.amount
    rows = []
    for month in sorted(by_month):
        amounts = [(label, by_month[month].get(key, Decimal(0))) for key, label in categories]
        rows.append((month, amounts, sum((a for _, a in amounts), Decimal(0))))
    year = [
        (label, sum((row[1][i][1] for row in rows), Decimal(0)))
        for i, (_, label) in enumerate(categories)
    ]
    table = SpendingTable(currency, categories, rows, (year, sum((a for _, a in year), Decimal(0))))
    table.chart = {
        "id": f"spending-{currency.lower()}",
        "type": "bar",
        "stacked": True,
        "labels": [month for month, _, _ in rows],
        "datasets": [
            {"label": label, "data": [float(row[1][i][1]) for row in rows]}
            for i, (_, label) in enumerate(categories)
        ],
    }
    return table


def demo_periods(ledger: list[LedgerEntry], flow: str, year: int) -> set[tuple[str, str]]:
    """(currency, month or year) of the figures of ``flow`` that include demo entries."""
    found = set()
    for item in ledger:
        if item.demo and item.flow == flow:
            found |= {(item.currency, item.month), (item.currency, str(year))}
    return found


def months_of(year: int) -> list[str]:
    """The months a year's income table shows, every one of them ("2026-01", ...): all
    twelve of a past year, those up to this one of the current year."""
    today = timezone.localdate()
    last = 12 if year < today.year else today.month if year == today.year else 0
    return [f"{year}-{month:02d}" for month in range(1, last + 1)]


def funding_report(year: int) -> FundingReport:
    minimum = settings.FUNDING_MIN_CONTRIBUTORS
    report = FundingReport(year=year, minimum=minimum)
    goals = {goal.currency: goal for goal in FundingGoal.objects.filter(year=year)}
    ledger = entries(year)
    contributions: dict[str, list] = {}
    spent: dict[str, list[LedgerEntry]] = {}
    for item in ledger:
        if item.flow == INCOME:
            contributions.setdefault(item.currency, []).append(
                (item.month, item.category, item.contributor, item.amount)
            )
        elif item.flow == SPENDING:
            spent.setdefault(item.currency, []).append(item)
    report.demo_payments = sum(1 for item in ledger if item.demo and item.flow == INCOME)
    report.demo_expenses = sum(1 for item in ledger if item.demo and item.flow == SPENDING)
    report.demo_periods = demo_periods(ledger, INCOME, year)
    report.demo_spending_periods = demo_periods(ledger, SPENDING, year)
    report.spending = [spending_table(currency, spent[currency]) for currency in sorted(spent)]
    report.transactions = transactions(ledger, income_lines=minimum <= 1)
    report.years = sorted({year, *years_with_entries()}, reverse=True)
    for currency in sorted(set(contributions) | set(goals)):
        items = contributions.get(currency, [])
        monthly = [Contribution(month, kind, who, amount) for month, kind, who, amount in items]
        yearly = [Contribution(str(year), kind, who, amount) for _, kind, who, amount in items]
        # No income in this currency (a goal set, nothing given yet): a true nought.
        [year_row] = publishable_rows(yearly, programmes(), minimum) or [
            Row(key=str(year), total=Decimal(0))
        ]
        table = CurrencyTable(
            currency=currency,
            # every month once the currency has income, a nought where none came
            rows=publishable_rows(monthly, programmes(), minimum, months_of(year) if items else ()),
            year=year_row,
            goal=goals.get(currency),
        )
        if table.goal is not None:
            published = sum((v for v in year_row.cells.values() if v is not None), Decimal(0))
            table.raised = published
            table.progress = goal_progress(published, table.goal.amount)
        report.tables.append(table)
    spent_totals = {table.currency: table.year[1] for table in report.spending}
    received = {table.currency: table.year.total for table in report.tables}
    for currency in sorted(set(spent_totals) | {c for c, t in received.items() if t}):
        got, spent = received.get(currency, Decimal(0)), spent_totals.get(currency, Decimal(0))
        report.balances.append((currency, got, spent, None if got is None else got - spent))
    for table in report.tables:
        table.chart = chart_spec(table, report)
        table.display_rows = [(row, cells_of(row, report.columns)) for row in table.rows]
        table.display_year = cells_of(table.year, report.columns)
    # A donor whose gifts of the year were all refunded or disputed gave nothing.
    given: dict[tuple[str, str], Decimal] = {}
    for item in ledger:
        if item.flow == INCOME and item.category == DONORS:
            key = (item.contributor, item.currency)
            given[key] = given.get(key, Decimal(0)) + item.amount
    report.donors = len({contributor for (contributor, _), net in given.items() if net > 0})
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


# The funding downloads (``/funding.csv``, ``/funding-years.csv``): one figure a row, typed
# (``core.opendata``); the totals are left to the reader (a total is the sum of its row's
# figures, and is withheld whenever one of them is).
LICENCE = {
    "name": "CC-BY-4.0",
    "path": "https://creativecommons.org/licenses/by/4.0/",
    "title": "CC BY 4.0",
}
LICENCE_STATEMENT = (
    "The MariaDB Foundation's funding figures, published under the Creative Commons "
    "Attribution 4.0 International licence: you may share and adapt them if you credit "
    "the MariaDB Foundation."
)


def withholding_rule(minimum: int) -> str:
    return (
        f"an income figure given by fewer than {minimum} different contributors is never "
        "published on its own: it is merged into 'Smaller programmes combined' or, if even "
        "that has too few, withheld"
    )


def funding_fields(period: opendata.Field, minimum: int) -> list[opendata.Field]:
    Field = opendata.Field
    return [
        period,
        Field("currency", "string", "ISO 4217 currency code", required=True),
        Field("flow", "string", "income or spending", required=True, enum=(INCOME, SPENDING)),
        Field("category", "string", "Programme (income) or category (spending)", required=True),
        Field("amount", "number", "The amount, in the row's currency", unit="currency", minimum=0),
        opendata.withheld("amount", withholding_rule(minimum)),
        Field(
            "includes_demo_data",
            "boolean",
            "true where the figure includes demonstration entries (not money that moved)",
            required=True,
        ),
    ]


MONTH = opendata.Field("month", "yearmonth", "The month (ISO 8601, YYYY-MM)", required=True)
YEAR = opendata.Field("year", "year", "The calendar year", required=True)


def _figures(report: FundingReport, yearly: bool):
    for table in report.tables:
        rows = [(table.year, table.display_year)] if yearly else table.display_rows
        for row, cells in rows:
            demo = (table.currency, row.key) in report.demo_periods
            for cell in cells:
                if cell.state != "none":
                    withheld = cell.state == "withheld"
                    yield [row.key, table.currency, INCOME, cell.label, cell.value, withheld, demo]
    for table in report.spending:
        rows = [(str(report.year), *table.year)] if yearly else table.rows
        for period, amounts, _total in rows:
            demo = (table.currency, period) in report.demo_spending_periods
            for label, amount in amounts:
                yield [period, table.currency, SPENDING, label, amount, False, demo]


def monthly_export(report: FundingReport) -> dict:
    return {
        "fields": funding_fields(MONTH, report.minimum),
        "rows": list(_figures(report, yearly=False)),
    }


def yearly_export(report: FundingReport) -> dict:
    """The year's figures: not the sums of the months, where months are withheld."""
    return {
        "fields": funding_fields(YEAR, report.minimum),
        "rows": list(_figures(report, yearly=True)),
    }
