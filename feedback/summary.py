"""The public summary of accepted reports (GET /api/feedback/summary).

Without a period it counts every processed report that is not test traffic (or those of
the last ``days``), with breakdowns over each server's latest full report. With a rolling
window (``30d``, ``90d``, ``365d``) it counts the complete days of the window, and with a
``month`` that calendar month, as the dashboard's rollups do, so the two agree when asked
the same question. Every answer says which period it counts and what.
"""

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

from django.core.cache import cache
from django.db.models import Count, Max, Min
from django.utils import timezone

from core.opendata import Field
from feedback.anonymity import minimum_servers, publish_counts
from feedback.dimensions import (
    MANY_VALUES,
    ONE_VALUE,
    REPORT_FIELDS,
    WINDOWS,
    values_of,
)
from feedback.models import RawReport, Report, TestTrafficRule

# The summary's names for dimensions: "version" has always meant the major.minor series.
SUMMARY_NAMES = {"series": "version", "version": "release"}


def summary_name(dimension: str) -> str:
    return SUMMARY_NAMES.get(dimension, dimension)


def _received(reports, since=None, until=None):
    """The reports received from ``since`` (included) to ``until`` (excluded)."""
    if since:
        reports = reports.filter(received_at__gte=since)
    if until:
        reports = reports.filter(received_at__lt=until)
    return reports


def latest_full_reports(since=None, until=None):
    """Each server's most recent processed full report (not test traffic) that names its
    release: the report it is counted by (``Report.objects.describing``)."""
    full = _received(Report.objects.describing(), since, until)
    latest_ids = full.values("server").annotate(latest=Max("id")).values("latest")
    return Report.objects.filter(pk__in=latest_ids)


def count_dimensions(reports) -> dict[str, dict[str, int]]:
    """Servers per value of every dimension, one report per server."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in reports.values(*REPORT_FIELDS).iterator(chunk_size=2000):
        for dimension, values in values_of(row).items():
            for value in values:
                counts[dimension][value] += 1
    return counts


def publish(counts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {
        summary_name(dimension): publish_counts(dict(counts.get(dimension, {})), dimension)
        for dimension in [*ONE_VALUE, *MANY_VALUES]
    }


COUNTS = (
    "reports: processed reports received in the period, test traffic excluded; servers: the "
    "distinct servers that sent a full report naming their release in it (as every chart "
    "counts them); breakdowns: those servers by their latest such report in the period "
    "(share_percent: of the period's servers). Values on fewer than "
    "min_bucket_servers servers are merged into 'other' or, for ordered ranges, into the "
    "neighbouring range."
)


class MonthNotCounted(ValueError):
    """A month the summary does not answer for: not over yet, or wholly before the first
    report (the API answers 400 with this reason, never a 0 that reads as a fact)."""


def _next_month(month: date) -> date:
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)


def check_month(month: date, today: date) -> None:
    """Raise MonthNotCounted unless ``month`` is complete and has reports to count."""
    current = today.replace(day=1)
    if month >= current:
        last = (current - timedelta(days=1)).replace(day=1)
        raise MonthNotCounted(
            f"{month:%Y-%m} is not complete yet; the last complete month is {last:%Y-%m}"
        )
    first = Report.objects.counted().aggregate(first=Min("received_at"))["first"]
    if first is None:
        raise MonthNotCounted("no report has been counted yet")
    if _next_month(month) <= first.date():
        raise MonthNotCounted(
            f"{month:%Y-%m} is before the reports begin ({first.date().isoformat()}); "
            f"the first month with reports is {first:%Y-%m}"
        )


def _midnight(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC)


def build_summary(
    days: int | None = None, window: str | None = None, month: date | None = None
) -> dict:
    """The summary of one period: all time (the default), the last ``days`` days of 24 hours,
    a rolling ``window`` of complete days, or a calendar ``month`` (the dashboard's
    default question: the last complete month)."""
    since = until = None
    if window:
        until = _midnight(timezone.localdate())
        since = until - timedelta(days=WINDOWS[window])
    elif month:
        since = _midnight(month)
        until = _midnight(_next_month(month))
    elif days:
        since = timezone.now() - timedelta(days=days)
    counted = Report.objects.counted()
    reports = _received(counted, since, until)
    bounds = reports.aggregate(first=Min("received_at"), last=Max("received_at"), total=Count("id"))
    # the servers every chart counts (Report.objects.describing): one count of servers
    described = _received(Report.objects.describing(), since, until)
    bounds["servers"] = described.values("server").distinct().count()
    begin = counted.aggregate(first=Min("received_at"))["first"]
    servers = bounds["servers"]
    breakdowns = publish(count_dimensions(latest_full_reports(since, until)))
    if window:
        kind = "window"
    elif month:
        kind = "month"
    else:
        kind = "days" if days else "all"
    return {
        "reports": bounds["total"],
        "servers": servers,
        "counts": COUNTS,
        "period": {
            "kind": kind,
            "from": bounds["first"].isoformat() if bounds["first"] else None,
            "to": bounds["last"].isoformat() if bounds["last"] else None,
            "days": days,
            "window": window,
            "month": month.strftime("%Y-%m") if month else None,
            # Never before the reports begin: a window covers only days with reports.
            "window_from": max(since.date(), begin.date() if begin else since.date()).isoformat()
            if since is not None and (window or month)
            else None,
            "window_to": (until - timedelta(days=1)).date().isoformat() if until else None,
        },
        "reports_begin": begin.date().isoformat() if begin else None,
        "window": window,
        "pending": RawReport.objects.pending().count(),
        "rejected": RawReport.objects.rejected().count(),
        "min_bucket_servers": minimum_servers(),
        "breakdowns": breakdowns,
        "share_percent": {
            dimension: {
                value: round(100 * n / servers, 1) if servers else 0.0
                for value, n in values.items()
            }
            for dimension, values in breakdowns.items()
        },
    }


def cached_summary(
    days: int | None = None, window: str | None = None, month: date | None = None
) -> dict:
    """The summary, cached until a report arrives or is processed (or the day changes)."""
    marks = RawReport.objects.aggregate(raw=Max("id"), done=Max("processed_at"))
    marks.update(Report.objects.aggregate(parsed=Max("id")))
    marks["rejected"] = RawReport.objects.done().count()
    marks["test"] = TestTrafficRule.objects.fingerprint()
    stamp = marks["done"].timestamp() if marks["done"] else 0
    key = (
        f"feedback-summary:{days}:{window}:{month}:{timezone.localdate()}:{marks['raw']}:"
        f"{marks['parsed']}:{stamp}:{marks['rejected']}:{marks['test']}"
    )
    summary = cache.get(key)
    if summary is None:
        summary = build_summary(days, window, month)
        cache.set(key, summary, timeout=3600)
    return summary


# The summary as a typed CSV (core.opendata): one row per value of every breakdown, after a
# row of the period's servers, each row carrying the period it counts.
SUMMARY_FIELDS = [
    Field("period_from", "date", "first day the row counts", required=True),
    Field("period_to", "date", "last day the row counts", required=True),
    Field(
        "dimension",
        "string",
        "'servers' (every server of the period) or the breakdown: version (the series), "
        "release, os, distribution, ...",
        required=True,
    ),
    Field("value", "string", "the value servers reported; empty on the 'servers' row"),
    Field("servers", "integer", "distinct servers", required=True, minimum=0),
    Field(
        "share_percent",
        "number",
        "of the period's servers, in percent (one decimal)",
        unit="%",
        required=True,
        minimum=0,
    ),
]


def _period_days(figures: dict) -> tuple[str | None, str | None]:
    period = figures["period"]
    if period["window_from"]:
        return period["window_from"], period["window_to"]
    first, last = period["from"], period["to"]
    return (first[:10] if first else None), (last[:10] if last else None)


def summary_period_name(figures: dict) -> str:
    """How a download names the period it counts: ``2026-11``, ``90d``, ``30-days``, ``all``."""
    period = figures["period"]
    if period["kind"] == "month":
        return period["month"]
    if period["kind"] == "window":
        return period["window"]
    if period["kind"] == "days":
        return f"{period['days']}-days"
    return "all"


def summary_rows(figures: dict) -> list[list]:
    """The rows of the summary's CSV; none when the period has no report."""
    begin, end = _period_days(figures)
    if not figures["servers"] or begin is None:
        return []
    rows = [[begin, end, "servers", "", figures["servers"], 100.0]]
    for dimension, values in figures["breakdowns"].items():
        shares = figures["share_percent"][dimension]
        for value, servers in values.items():
            rows.append([begin, end, dimension, value, servers, shares[value]])
    return rows
