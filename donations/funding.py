"""Pure arithmetic of the public funding page: sums that no single gift can be read from.

A cell (a month, a programme) is published only when at least ``minimum`` different
contributors gave to it. Cells below that are merged into one "other" cell for the same
row; if even the merged cell is too small it is withheld, and so is the row's total
(otherwise the total minus the published cells would give it away).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

OTHER = "other"


@dataclass(frozen=True)
class Contribution:
    row: str  # a month ("2026-03") or a year ("2026")
    programme: str
    contributor: str  # whatever identifies one giver: an organisation, a donor e-mail
    amount: Decimal


@dataclass
class Row:
    key: str
    cells: dict[str, Decimal | None] = field(default_factory=dict)
    contributors: int = 0
    total: Decimal | None = None

    @property
    def withheld(self) -> bool:
        return any(value is None for value in self.cells.values())


def publishable_rows(
    contributions: list[Contribution],
    programmes: list[str],
    minimum: int,
    keys: Iterable[str] = (),
) -> list[Row]:
    """One Row per distinct ``row`` key, in key order, with the anonymity rule applied;
    each of ``keys`` has a row too, of noughts where nobody gave (a month without income
    is shown as such, not left out)."""
    by_row: dict[str, dict[str, tuple[set[str], Decimal]]] = {key: {} for key in keys}
    for item in contributions:
        cells = by_row.setdefault(item.row, {})
        givers, amount = cells.get(item.programme, (set(), Decimal(0)))
        givers.add(item.contributor)
        cells[item.programme] = (givers, amount + item.amount)

    rows = []
    for key in sorted(by_row):
        cells = by_row[key]
        givers_of_row = set().union(*(g for g, _ in cells.values())) if cells else set()
        row = Row(key=key, contributors=len(givers_of_row))
        small_givers: set[str] = set()
        small_amount = Decimal(0)
        for programme in programmes:
            givers, amount = cells.get(programme, (set(), Decimal(0)))
            if not givers:
                row.cells[programme] = Decimal(0)
            elif len(givers) >= minimum:
                row.cells[programme] = amount
            else:
                small_givers |= givers
                small_amount += amount
        if small_givers:
            row.cells[OTHER] = small_amount if len(small_givers) >= minimum else None
        if not row.withheld:
            row.total = sum((v for v in row.cells.values() if v is not None), Decimal(0))
        rows.append(row)
    return rows


def goal_progress(published_total: Decimal, goal: Decimal) -> int:
    """Whole percent of the goal reached, capped at 100."""
    if goal <= 0:
        return 0
    return min(100, int(published_total * 100 / goal))
