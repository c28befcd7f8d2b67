"""What the dashboard and the trend API publish, read from the rollups only.

Every public figure passes through ``feedback.anonymity.merge_small_buckets``: a bucket
with fewer than FEEDBACK_MIN_BUCKET_SERVERS servers is folded into "other".
"""

from datetime import date

from django.core.cache import cache
from django.utils import timezone

from feedback.anonymity import OTHER, minimum_servers, publishable
from feedback.anonymity import merge_small_buckets as merge_small
from feedback.dimensions import DIMENSIONS
from feedback.trends.models import Rollup
from feedback.trends.periods import PERIODS
from feedback.trends.versioning import cache_version
from releases.models import Release, Series

DEFAULT_SPANS = {"day": 60, "week": 26, "month": 24}


def load_rows(period: str, span: int):
    """One query: every rollup row of the last ``span`` periods."""
    starts = list(
        Rollup.objects.filter(period=period, dimension="servers")
        .order_by("-period_start")
        .values_list("period_start", flat=True)[:span]
    )
    if not starts:
        return [], {}
    rows = Rollup.objects.filter(period=period, period_start__gte=min(starts)).values_list(
        "period_start", "dimension", "value", "servers"
    )
    table: dict[str, dict[date, dict[str, int]]] = {}
    for start, dimension, value, servers in rows:
        table.setdefault(dimension, {}).setdefault(start, {})[value] = servers
    return sorted(starts), table


def time_series(starts, table, dimension, top=8):
    """Per period, the merged counts; the ``top`` largest values by total, the rest "other"."""
    per_period = {start: merge_small(table.get(dimension, {}).get(start, {})) for start in starts}
    totals: dict[str, int] = {}
    for counts in per_period.values():
        for value, count in counts.items():
            if value != OTHER:
                totals[value] = totals.get(value, 0) + count
    keep = [v for v, _ in sorted(totals.items(), key=lambda item: -item[1])[:top]]
    series = {value: [] for value in keep}
    series[OTHER] = []
    for start in starts:
        counts = per_period[start]
        for value in keep:
            series[value].append(counts.get(value, 0))
        series[OTHER].append(sum(c for v, c in counts.items() if v not in keep))
    if not any(series[OTHER]):
        del series[OTHER]
    return series


def latest_breakdown(starts, table, dimension):
    if not starts:
        return {}
    return merge_small(table.get(dimension, {}).get(starts[-1], {}))


def dashboard(period: str = "month", span: int | None = None, today: date | None = None) -> dict:
    """Everything the dashboard shows; cached until the rollups change."""
    if period not in PERIODS:
        period = "month"
    span = span or DEFAULT_SPANS[period]
    key = f"trends:dashboard:{cache_version()}:{period}:{span}:{minimum_servers()}:{today}"
    data = cache.get(key)
    if data is None:
        data = _dashboard(period, span, today or timezone.localdate())
        cache.set(key, data, timeout=3600)
    return data


def _dashboard(period, span, today):
    starts, table = load_rows(period, span)
    labels = [start.isoformat() for start in starts]
    active = [table.get("servers", {}).get(start, {}).get("", 0) for start in starts]
    latest_total = active[-1] if active else 0

    def adoption(dimension):
        counts = latest_breakdown(starts, table, dimension)
        return {value: (count, round(100 * count / latest_total, 1) if latest_total else 0)
                for value, count in counts.items()}  # fmt: skip

    eol_series = {s.version for s in Series.objects.all() if s.is_eol(today)}
    series_now = latest_breakdown(starts, table, "series")
    on_eol = sum(count for value, count in series_now.items() if value in eol_series)
    releases = []
    version_rows = table.get("version", {})
    for release in Release.objects.published().select_related("series").by_version()[:12]:
        counts = [version_rows.get(start, {}).get(release.version, 0) for start in starts]
        published = [c if publishable(c) else 0 for c in counts]
        if any(published):
            releases.append({"version": release.version, "date": release.release_date.isoformat(),
                             "counts": published})  # fmt: skip
    return {
        "period": period,
        "span": span,
        "labels": labels,
        "active": active,
        "latest": labels[-1] if labels else None,
        "latest_total": latest_total,
        "series_over_time": time_series(starts, table, "series"),
        "breakdowns": {
            d: latest_breakdown(starts, table, d)
            for d in ["os", "distribution", "architecture", "cpu", "memory", "thread_handling"]
        },
        "features": adoption("feature"),
        "engines": adoption("engine"),
        "eol": {
            "servers": on_eol,
            "share": round(100 * on_eol / latest_total, 1) if latest_total else 0,
            "series": sorted(eol_series),
        },
        "releases": releases,
        "days_to_reach": days_to_reach(),
        "minimum": minimum_servers(),
    }


def days_to_reach(thresholds=(5, 10, 50, 100)):
    """For each release: days from its release date until N servers ran it on one day."""
    rows = Rollup.objects.filter(period="day", dimension="version").values_list(
        "value", "period_start", "servers"
    )
    by_version: dict[str, list[tuple[date, int]]] = {}
    for value, start, servers in rows:
        by_version.setdefault(value, []).append((start, servers))
    result = []
    for release in Release.objects.published().by_version()[:12]:
        days = sorted(by_version.get(release.version, []))
        reached = {}
        for threshold in thresholds:
            first = next((d for d, n in days if n >= threshold and publishable(n)), None)
            reached[threshold] = (first - release.release_date).days if first else None
        result.append({"version": release.version, "reached": reached})
    return result


def trend(dimension: str, period: str = "month", span: int | None = None) -> dict:
    """GET /api/feedback/trends/<dimension>: servers per value per period, merged."""
    span = span or DEFAULT_SPANS.get(period, 24)
    key = f"trends:trend:{cache_version()}:{dimension}:{period}:{span}:{minimum_servers()}"
    data = cache.get(key)
    if data is None:
        starts, table = load_rows(period, span)
        if dimension == "servers":
            values = {"servers": [table.get("servers", {}).get(s, {}).get("", 0) for s in starts]}
        else:
            values = time_series(starts, table, dimension, top=50)
        data = {
            "dimension": dimension,
            "label": DIMENSIONS.get(dimension, "Active servers"),
            "period": period,
            "periods": [s.isoformat() for s in starts],
            "values": values,
            "min_bucket_servers": minimum_servers(),
        }
        cache.set(key, data, timeout=3600)
    return data
