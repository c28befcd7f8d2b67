"""Incremental rollups: distinct servers per period, overall and per dimension value.

A server counts in a period if it sent any report in it (test traffic excluded);
dimension values come from its full reports in that period. Recomputing a period
replaces its rows, so it is idempotent; ``update_rollups`` only recomputes the
periods that reports newer than the stored watermark fall in.
"""

from collections import defaultdict
from datetime import UTC, date, datetime

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import TruncDate

from feedback.dimensions import cpu_bucket, memory_bucket
from feedback.models import Report
from feedback.trends.models import Rollup, RollupState
from feedback.trends.periods import PERIODS, period_end, period_start
from feedback.trends.versioning import bump_cache_version


def _values(row) -> dict[str, list[str]]:
    """The dimension values of one full report."""
    series = (
        f"{row['version_major']}.{row['version_minor']}" if row["version_major"] is not None else ""
    )
    return {
        "series": [series],
        "version": [
            f"{row['version_major']}.{row['version_minor']}.{row['version_patch']}"
            if series and row["version_patch"] is not None
            else ""
        ],
        "os": [row["os"]],
        "distribution": [row["distribution"].removeprefix("os-release: ").removeprefix("lsb: ")],
        "architecture": [row["architecture"]],
        "cpu": [cpu_bucket(row["cpu_count"])],
        "memory": [memory_bucket(row["memory_bytes"])],
        "thread_handling": [row["thread_handling"]],
        "engine": list(row["engines"] or []),
        "plugin": [name for name, used in (row["plugins"] or {}).items() if used and used > 0],
        "feature": [
            name.removeprefix("FEATURE_")
            for name, n in (row["features"] or {}).items()
            if n and n > 0
        ],
        "collation": [name for name, n in (row["collations"] or {}).items() if n and n > 0],
    }


FULL_FIELDS = ["server_id", "version_major", "version_minor", "version_patch", "os", "distribution",
               "architecture", "cpu_count", "memory_bytes", "thread_handling", "engines", "plugins",
               "features", "collations"]  # fmt: skip


def compute_period(period: str, start: date) -> list[Rollup]:
    begin = datetime.combine(start, datetime.min.time(), tzinfo=UTC)
    end = datetime.combine(period_end(period, start), datetime.min.time(), tzinfo=UTC)
    reports = Report.objects.filter(is_test=False, received_at__gte=begin, received_at__lt=end)
    servers = set(reports.values_list("server_id", flat=True).distinct())
    if not servers:
        return []
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    full = reports.filter(kind=Report.Kind.FULL).values(*FULL_FIELDS).iterator(chunk_size=5000)
    for row in full:
        for dimension, values in _values(row).items():
            for value in values:
                if value:
                    seen[(dimension, value[:200])].add(row["server_id"])
    rows = [Rollup(period=period, period_start=start, dimension="servers", value="",
                   servers=len(servers))]  # fmt: skip
    rows += [
        Rollup(
            period=period, period_start=start, dimension=dimension, value=value, servers=len(ids)
        )
        for (dimension, value), ids in seen.items()
    ]
    return rows


@transaction.atomic
def recompute(period: str, start: date) -> int:
    Rollup.objects.filter(period=period, period_start=start).delete()
    rows = compute_period(period, start)
    Rollup.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def touched_periods(since_id: int, up_to_id: int) -> set[tuple[str, date]]:
    days = (
        Report.objects.filter(id__gt=since_id, id__lte=up_to_id, is_test=False)
        .annotate(day=TruncDate("received_at"))
        .values_list("day", flat=True)
        .distinct()
    )
    return {(period, period_start(period, day)) for day in days for period in PERIODS}


def update_rollups(progress=None) -> int:
    """Recompute only the periods that new reports fall in; returns how many."""
    with transaction.atomic():
        state, _ = RollupState.objects.select_for_update().get_or_create(pk=1)
        newest = Report.objects.aggregate(newest=Max("id"))["newest"] or 0
        if newest <= state.last_report_id:
            return 0
        periods = touched_periods(state.last_report_id, newest)
        for period, start in sorted(periods):
            recompute(period, start)
            if progress:
                progress(1)
        state.last_report_id = newest
        state.save()
    bump_cache_version()
    return len(periods)


def rebuild_all(progress=None) -> int:
    RollupState.objects.update_or_create(pk=1, defaults={"last_report_id": 0})
    Rollup.objects.all().delete()
    return update_rollups(progress)
