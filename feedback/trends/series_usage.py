"""What the feedback reports say about a series: the share of reporting servers that run it
and how soon its releases were picked up.

The feedback app's rollups are read by ``rollup_rows`` (in one query) and
``Rollup.objects.first_report_day`` (the dashboard's first report day); everything else
here is plain arithmetic on what they return.
"""

from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings
from django.db.models import Q

from feedback.anonymity import publishable
from feedback.trends.models import Rollup
from feedback.trends.periods import ADOPTION_WINDOW, default_period, is_complete, last_complete_day

# Below this many reporting servers in a month, a share is shown but called thin.
REPRESENTATIVE_SERVERS = 100
MONTHS_SHOWN = 6
RELEASES_SHOWN = 5


def rollup_rows(series_version: str, versions, since: date, window_end: date):
    """In one query, the rollups the series' usage is told from: ``[(period, period_start,
    dimension, value, servers), ...]``, oldest first: reporting servers per month overall
    and on the series since ``since``, and on each of ``versions`` per week and in the 7
    days to ``window_end``."""
    months = Q(period="month", period_start__gte=since) & (
        Q(dimension="servers") | Q(dimension="series", value=series_version)
    )
    adoption = Q(dimension="version", value__in=list(versions)) & (
        Q(period="week") | Q(period=ADOPTION_WINDOW, period_start=window_end)
    )
    return list(
        Rollup.objects.filter(months | adoption)
        .order_by("period_start")
        .values_list("period", "period_start", "dimension", "value", "servers")
    )


@dataclass
class MonthShare:
    month: date
    servers: int
    total: int
    minimum: int

    @property
    def hidden(self):
        """Fewer servers than the anonymity minimum, none at all included: not published."""
        return not publishable(self.servers, self.minimum)

    @property
    def total_hidden(self):
        return not publishable(self.total, self.minimum)

    @property
    def percent(self):
        return 100 * self.servers / self.total if self.total else 0


@dataclass
class Adoption:
    version: str
    release_date: date
    first_week: date | None  # first week with at least the minimum of servers on it
    latest_servers: int | None  # in the last complete 7 days; None when under the minimum
    before_data: bool  # released before the reports begin: no adoption speed to tell

    @property
    def weeks_to_adopt(self):
        if self.first_week is None or self.before_data:
            return None
        return max(0, (self.first_week - self.release_date).days // 7)


@dataclass
class SeriesUsage:
    months: list[MonthShare] = field(default_factory=list)  # complete months only
    latest: MonthShare | None = None  # the dashboard's default month
    adoption: list[Adoption] = field(default_factory=list)
    minimum: int = 0
    reports_begin: date | None = None  # the first report counted, as on the dashboard
    window_end: date | None = None  # the last day of the 7 days "latest_servers" counts

    @property
    def is_thin(self):
        return self.latest is None or self.latest.total < REPRESENTATIVE_SERVERS


def series_usage(series_version: str, releases, today: date) -> SeriesUsage:
    """``releases``: the series' GA releases (objects with version and release_date).

    The same periods as the dashboard: complete months, the headline from the month its
    breakdowns default to, and the last complete 7 days; the same first report day."""
    minimum = settings.FEEDBACK_MIN_BUCKET_SERVERS
    first_day = Rollup.objects.first_report_day()
    since = (today.replace(day=1) - timedelta(days=31 * MONTHS_SHOWN)).replace(day=1)
    window_end = last_complete_day(today)
    recent = sorted(releases, key=lambda r: r.release_date, reverse=True)[:RELEASES_SHOWN]
    totals, running, weekly, last_seven = {}, {}, [], {}
    for period, start, dimension, value, n in rollup_rows(
        series_version, [r.version for r in recent], since, window_end
    ):
        if dimension == "servers":
            if is_complete("month", start, today):
                totals[start] = n
        elif dimension == "series":
            running[start] = n
        elif period == "week":
            weekly.append((start, value, n))
        elif start == window_end:
            last_seven[value] = n
    usage = SeriesUsage(minimum=minimum, reports_begin=first_day, window_end=window_end)
    for month, total in sorted(totals.items())[-MONTHS_SHOWN:]:
        usage.months.append(MonthShare(month, running.get(month, 0), total, minimum))
    chosen = default_period("month", [m.month for m in usage.months], today, first_day)
    usage.latest = next((m for m in usage.months if m.month == chosen), None)
    for release in recent:
        weeks = [(start, n) for start, value, n in weekly if value == release.version]
        first = next((start for start, n in weeks if n >= minimum), None)
        latest = last_seven.get(release.version, 0)
        usage.adoption.append(
            Adoption(
                version=release.version,
                release_date=release.release_date,
                first_week=first,
                latest_servers=latest if publishable(latest, minimum) else None,
                before_data=first_day is None or release.release_date < first_day,
            )
        )
    return usage
