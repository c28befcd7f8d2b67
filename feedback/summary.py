"""The public summary of accepted reports (GET /api/feedback/summary).

Without a window it counts every accepted report (or those of the last ``days``),
with breakdowns over each server's latest processed full report. With a rolling
window (``30d``, ``90d``, ``365d``) it counts the complete days of the window, as the
dashboard's window rollups do.
"""

from collections import defaultdict
from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.db.models import Count, Max, Min
from django.utils import timezone

from feedback.anonymity import merge_small_buckets, minimum_servers
from feedback.dimensions import (
    MANY_VALUES,
    ONE_VALUE,
    REPORT_FIELDS,
    WINDOWS,
    value_order,
    values_of,
)
from feedback.models import RawReport, Report

# The summary's names for dimensions: "version" has always meant the major.minor series.
SUMMARY_NAMES = {"series": "version", "version": "release"}


def summary_name(dimension: str) -> str:
    return SUMMARY_NAMES.get(dimension, dimension)


def latest_full_reports(since=None, until=None):
    """Each server's most recent processed full report (not test traffic)."""
    full = Report.objects.filter(kind=Report.Kind.FULL, is_test=False)
    if since:
        full = full.filter(received_at__gte=since)
    if until:
        full = full.filter(received_at__lt=until)
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
        summary_name(dimension): merge_small_buckets(
            dict(counts.get(dimension, {})), order=value_order(dimension)
        )
        for dimension in [*ONE_VALUE, *MANY_VALUES]
    }


def build_summary(days: int | None = None, window: str | None = None) -> dict:
    now = timezone.now()
    since = until = None
    if window:
        today = timezone.localdate()
        until = datetime.combine(today, datetime.min.time(), tzinfo=UTC)
        since = until - timedelta(days=WINDOWS[window])
    elif days:
        since = now - timedelta(days=days)
    raws = RawReport.objects.filter(is_test=False)
    reports = Report.objects.filter(is_test=False)
    if since:
        raws = raws.filter(received_at__gte=since)
        reports = reports.filter(received_at__gte=since)
    if until:
        raws = raws.filter(received_at__lt=until)
        reports = reports.filter(received_at__lt=until)
    bounds = raws.aggregate(first=Min("received_at"), last=Max("received_at"), total=Count("id"))
    return {
        "reports": bounds["total"],
        "servers": reports.aggregate(n=Count("server", distinct=True))["n"],
        "period": {
            "from": bounds["first"].isoformat() if bounds["first"] else None,
            "to": bounds["last"].isoformat() if bounds["last"] else None,
            "days": days,
            "window": window,
            "window_from": since.date().isoformat() if window else None,
            "window_to": (until - timedelta(days=1)).date().isoformat() if window else None,
        },
        "window": window,
        "pending": RawReport.objects.pending().count(),
        "rejected": raws.rejected().count(),
        "min_bucket_servers": minimum_servers(),
        "breakdowns": publish(count_dimensions(latest_full_reports(since, until))),
    }


def cached_summary(days: int | None = None, window: str | None = None) -> dict:
    """The summary, cached until a report arrives or is processed (or the day changes)."""
    marks = RawReport.objects.aggregate(raw=Max("id"), done=Max("processed_at"))
    marks.update(Report.objects.aggregate(parsed=Max("id")))
    marks["rejected"] = RawReport.objects.done().count()
    stamp = marks["done"].timestamp() if marks["done"] else 0
    key = (
        f"feedback-summary:{days}:{window}:{timezone.localdate()}:{marks['raw']}:"
        f"{marks['parsed']}:{stamp}:{marks['rejected']}"
    )
    summary = cache.get(key)
    if summary is None:
        summary = build_summary(days, window)
        cache.set(key, summary, timeout=3600)
    return summary
