"""Calendar periods and rolling windows the rollups count servers in (pure logic).

Calendar periods (day, week from Monday, month) are stored for every period with
reports. Rolling windows are keyed by their last day: "7d" ends on every day (release
adoption counts the servers seen in the 7 days to that day, since servers report
weekly), and "30d", "90d", "365d" end on the last complete day.
"""

from datetime import date, timedelta

from feedback.dimensions import WINDOWS

PERIODS = ["day", "week", "month"]
ADOPTION_WINDOW = "7d"
WINDOW_DAYS = {**WINDOWS, ADOPTION_WINDOW: 7}


def period_start(period: str, day: date) -> date:
    if period == "day":
        return day
    if period == "week":
        return day - timedelta(days=day.weekday())
    return day.replace(day=1)


def period_end(period: str, start: date) -> date:
    """The first day after the period (for a window: the day after its last day)."""
    if period in WINDOW_DAYS:
        return start + timedelta(days=1)
    if period == "day":
        return start + timedelta(days=1)
    if period == "week":
        return start + timedelta(days=7)
    return (start.replace(day=28) + timedelta(days=4)).replace(day=1)


def period_begin(period: str, start: date) -> date:
    """The first day counted: the period's start, or a window's first day."""
    if period in WINDOW_DAYS:
        return start - timedelta(days=WINDOW_DAYS[period] - 1)
    return start


def shown_begin(period: str, start: date, reports_begin: date | None) -> date:
    """The first day a period or window is said to cover: never before the reports begin
    (a 365-day window of a site that has had reports for two months covers two months)."""
    begin = period_begin(period, start)
    return max(begin, reports_begin) if reports_begin else begin


def is_complete(period: str, start: date, today: date) -> bool:
    """A period is complete once it has ended before today."""
    return period_end(period, start) <= today


def last_complete_day(today: date) -> date:
    return today - timedelta(days=1)


def default_period(
    period: str, starts: list[date], today: date, first_day: date | None
) -> date | None:
    """The period figures default to (the dashboard's breakdowns, the series pages): the
    last complete one that began on or after the first report, else the last complete
    one, else the latest."""
    complete = [start for start in starts if is_complete(period, start, today)]
    whole = [start for start in complete if first_day is None or start >= first_day]
    chosen = whole or complete or starts
    return chosen[-1] if chosen else None
