"""Calendar periods the rollups count servers in (pure logic)."""

from datetime import date, timedelta

PERIODS = ["day", "week", "month"]


def period_start(period: str, day: date) -> date:
    if period == "day":
        return day
    if period == "week":
        return day - timedelta(days=day.weekday())
    return day.replace(day=1)


def period_end(period: str, start: date) -> date:
    """The first day after the period."""
    if period == "day":
        return start + timedelta(days=1)
    if period == "week":
        return start + timedelta(days=7)
    return (start.replace(day=28) + timedelta(days=4)).replace(day=1)
