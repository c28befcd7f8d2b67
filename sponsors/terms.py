"""A sponsorship's term: one year, named by its dates, never by a calendar year.

The one place that says how long a term is, where the next one starts and how a term is
written. Both dates are inclusive: a term from 7 December 2026 runs to 6 December 2027,
and the next one starts on 7 December 2027, the day after. A term starting on 29 February
runs to 28 February of the next year (the next one then starts on 1 March). Pure: no
database, no clock.
"""

from dataclasses import dataclass
from datetime import date, timedelta

from core.formatting import long_date

ONE_DAY = timedelta(days=1)
__all__ = ["ONE_DAY", "Term", "anniversary", "long_date"]


def anniversary(day: date) -> date:
    """The same day a year later; 29 February's is 1 March when the next year has none."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return date(day.year + 1, 3, 1)


@dataclass(frozen=True, order=True)
class Term:
    """From ``starts_on`` to ``ends_on``, both days included."""

    starts_on: date
    ends_on: date

    def __post_init__(self):
        if self.ends_on < self.starts_on:
            raise ValueError(f"a term cannot end ({self.ends_on}) before it starts")

    @classmethod
    def one_year_from(cls, first_day: date) -> "Term":
        """The year-long term that starts on ``first_day``: to the day before its
        anniversary."""
        return cls(first_day, anniversary(first_day) - ONE_DAY)

    def following(self) -> "Term":
        """The next year-long term: from the day after this one ends."""
        return Term.one_year_from(self.ends_on + ONE_DAY)

    def __contains__(self, day: date) -> bool:
        return self.starts_on <= day <= self.ends_on

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days + 1

    @property
    def label(self) -> str:
        """The two days joined by an en dash, with a space each side: "7 December 2026",
        the dash, "6 December 2027"."""
        return f"{long_date(self.starts_on)} – {long_date(self.ends_on)}"

    def __str__(self) -> str:
        return self.label

    def as_dict(self) -> dict:
        """As an issued document stores it."""
        return {"starts_on": self.starts_on.isoformat(), "ends_on": self.ends_on.isoformat()}

    @classmethod
    def from_dict(cls, stored: dict | None) -> "Term | None":
        if not stored:
            return None
        return cls(date.fromisoformat(stored["starts_on"]), date.fromisoformat(stored["ends_on"]))
