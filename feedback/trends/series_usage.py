"""What the feedback reports say about a series: the share of reporting servers that run it
and how soon its releases were picked up.

The feedback app's rollups are read in exactly one place, ``server_counts``; everything
else here is plain arithmetic on what it returns, so a change to the rollups touches one
function.
"""

from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings

from feedback.trends.models import Rollup

# Below this many reporting servers in a month, a share is shown but called thin.
REPRESENTATIVE_SERVERS = 100
MONTHS_SHOWN = 6
RELEASES_SHOWN = 5


def server_counts(period: str, dimension: str, values=None, since: date | None = None):
    """Distinct reporting servers per period for one dimension (the feedback rollups):
    ``[(period_start, value, servers), ...]``, oldest first. ``dimension="servers"`` gives
    the overall count with an empty value."""
    rows = Rollup.objects.filter(period=period, dimension=dimension)
    if values is not None:
        rows = rows.filter(value__in=list(values))
    if since is not None:
        rows = rows.filter(period_start__gte=since)
    return list(rows.order_by("period_start").values_list("period_start", "value", "servers"))


@dataclass
class MonthShare:
    month: date
    servers: int
    total: int
    hidden: bool  # fewer servers than the anonymity minimum: not published

    @property
    def percent(self):
        return 100 * self.servers / self.total if self.total else 0


@dataclass
class Adoption:
    version: str
    release_date: date
    first_week: date | None  # first week with at least the minimum of servers on it
    latest_servers: int | None  # in the latest week with data; None when under the minimum
    before_data: bool  # released before the reports begin: no adoption speed to tell

    @property
    def weeks_to_adopt(self):
        if self.first_week is None or self.before_data:
            return None
        return max(0, (self.first_week - self.release_date).days // 7)


@dataclass
class SeriesUsage:
    months: list[MonthShare] = field(default_factory=list)
    adoption: list[Adoption] = field(default_factory=list)
    minimum: int = 0
    first_data_week: date | None = None

    @property
    def latest(self):
        return self.months[-1] if self.months else None

    @property
    def is_thin(self):
        return self.latest is None or self.latest.total < REPRESENTATIVE_SERVERS


def series_usage(series_version: str, releases, today: date) -> SeriesUsage:
    """``releases``: the series' GA releases (objects with version and release_date)."""
    minimum = settings.FEEDBACK_MIN_BUCKET_SERVERS
    since = (today.replace(day=1) - timedelta(days=31 * (MONTHS_SHOWN - 1))).replace(day=1)
    totals = {start: n for start, _, n in server_counts("month", "servers", since=since)}
    running = {
        start: n for start, _, n in server_counts("month", "series", [series_version], since)
    }
    usage = SeriesUsage(minimum=minimum)
    for month, total in sorted(totals.items()):
        servers = running.get(month, 0)
        usage.months.append(MonthShare(month, servers, total, hidden=0 < servers < minimum))
    recent = sorted(releases, key=lambda r: r.release_date, reverse=True)[:RELEASES_SHOWN]
    weekly = server_counts("week", "version", [r.version for r in recent])
    all_weeks = [start for start, _, _ in server_counts("week", "servers")]
    usage.first_data_week = all_weeks[0] if all_weeks else None
    latest_week = all_weeks[-1] if all_weeks else None
    for release in recent:
        weeks = [(start, n) for start, value, n in weekly if value == release.version]
        first = next((start for start, n in weeks if n >= minimum), None)
        latest = next((n for start, n in weeks if start == latest_week), 0)
        usage.adoption.append(
            Adoption(
                version=release.version,
                release_date=release.release_date,
                first_week=first,
                latest_servers=latest if latest >= minimum else None,
                before_data=usage.first_data_week is None
                or release.release_date < usage.first_data_week,
            )
        )
    return usage
