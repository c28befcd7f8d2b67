"""The public summary of accepted reports (GET /api/feedback/summary)."""

from datetime import timedelta

from django.core.cache import cache
from django.db.models import Count, Max, Min
from django.utils import timezone

from feedback.anonymity import merge_small_buckets, minimum_servers
from feedback.models import RawReport, Report


def latest_full_reports(since=None):
    """Each server's most recent processed full report (not test traffic)."""
    full = Report.objects.filter(kind=Report.Kind.FULL, is_test=False)
    if since:
        full = full.filter(received_at__gte=since)
    latest_ids = full.values("server").annotate(latest=Max("id")).values("latest")
    return Report.objects.filter(pk__in=latest_ids)


def _breakdown(reports, field):
    rows = reports.values(field).annotate(servers=Count("server", distinct=True))
    return {str(row[field] or ""): row["servers"] for row in rows}


def build_summary(days: int | None = None) -> dict:
    minimum = minimum_servers()
    since = timezone.now() - timedelta(days=days) if days else None
    raws = RawReport.objects.filter(is_test=False)
    reports = Report.objects.filter(is_test=False)
    if since:
        raws = raws.filter(received_at__gte=since)
        reports = reports.filter(received_at__gte=since)
    bounds = raws.aggregate(first=Min("received_at"), last=Max("received_at"), total=Count("id"))
    full = latest_full_reports(since)
    versions = {}
    for row in full.values("version_major", "version_minor").annotate(n=Count("server")):
        if row["version_major"] is not None:
            key = f"{row['version_major']}.{row['version_minor']}"
            versions[key] = versions.get(key, 0) + row["n"]
    return {
        "reports": bounds["total"],
        "servers": reports.aggregate(n=Count("server", distinct=True))["n"],
        "period": {
            "from": bounds["first"].isoformat() if bounds["first"] else None,
            "to": bounds["last"].isoformat() if bounds["last"] else None,
            "days": days,
        },
        "pending": RawReport.objects.pending().count(),
        "rejected": raws.rejected().count(),
        "min_bucket_servers": minimum,
        "breakdowns": {
            "version": merge_small_buckets(versions, minimum),
            "os": merge_small_buckets(_breakdown(full, "os"), minimum),
            "architecture": merge_small_buckets(_breakdown(full, "architecture"), minimum),
            "distribution": merge_small_buckets(_breakdown(full, "distribution"), minimum),
            "thread_handling": merge_small_buckets(_breakdown(full, "thread_handling"), minimum),
        },
    }


def cached_summary(days: int | None = None) -> dict:
    """The summary, cached until a report arrives or is processed."""
    marks = RawReport.objects.aggregate(raw=Max("id"), done=Max("processed_at"))
    marks.update(Report.objects.aggregate(parsed=Max("id")))
    marks["rejected"] = RawReport.objects.done().count()
    stamp = marks["done"].timestamp() if marks["done"] else 0
    key = f"feedback-summary:{days}:{marks['raw']}:{marks['parsed']}:{stamp}:{marks['rejected']}"
    summary = cache.get(key)
    if summary is None:
        summary = build_summary(days)
        cache.set(key, summary, timeout=3600)
    return summary
