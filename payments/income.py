"""Income sources for the public funding figures, registered by the apps that take money.

The donations app publishes the funding page; the sponsorship payments it shows come
from here, so donations never imports sponsors. A source is a function of a year giving
``Income`` rows; its programmes (key -> public label) come first in the page's columns,
in the order the apps register (INSTALLED_APPS order).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class Income:
    paid_at: datetime
    currency: str
    amount: Decimal
    programme: str  # a key of the source's programmes
    contributor: str  # who gave, as a stable opaque key ("organisation:12")
    demo: bool = False  # recorded by load_demo, shown as demo data
    description: str = ""  # the public line for it ("Gold sponsor 2026: Acme"), or ""


Source = Callable[[int], Iterable[Income]]
Years = Callable[[], Iterable[int]]
_sources: list[Source] = []
_years: list[Years] = []
_programmes: dict[str, str] = {}


def register_source(source: Source, programmes: dict[str, str], years: Years):
    """``source(year)`` gives that year's income; ``years()`` the years it has any in."""
    if source not in _sources:
        _sources.append(source)
        _years.append(years)
    _programmes.update(programmes)


def programmes() -> dict[str, str]:
    return dict(_programmes)


def received_in(year: int) -> list[Income]:
    return [income for source in _sources for income in source(year)]


def years_with_income() -> set[int]:
    return {year for years in _years for year in years()}
