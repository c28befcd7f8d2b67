"""Rollups: distinct servers per period or window, overall and per dimension value.

A server counts in a period if it sent a full report naming its release in it (test
traffic excluded: ``Report.objects.describing``, the one rule of every count of servers);
its dimension values come from its latest such report in that period, so each server has
one version, one distribution, and so on, every breakdown of a period counts the same
servers as its total, and shares add up to 100 %. Recomputing a
period replaces its rows, so it is idempotent; ``update_rollups`` only recomputes the
periods and windows that reports newer than the stored watermark fall in, and
rebuilds everything when the mapping tables in ``feedback.dimensions`` changed.
"""

import hashlib
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import TruncDate
from django.utils import timezone

from feedback.dimensions import MAPPING_VERSION, REPORT_FIELDS, values_of
from feedback.models import Report, TestTrafficRule
from feedback.trends.models import Rollup, RollupState
from feedback.trends.periods import (
    ADOPTION_WINDOW,
    PERIODS,
    WINDOWS,
    last_complete_day,
    period_begin,
    period_end,
    period_start,
)
from feedback.trends.versioning import bump_cache_version


def counting_version() -> str:
    """What the stored rollups were counted with: the mapping tables and the test-traffic
    rules staff keep (marking a label as test traffic recounts every period)."""
    rules = TestTrafficRule.objects.fingerprint()
    return hashlib.sha256(f"{MAPPING_VERSION}:{rules}".encode()).hexdigest()[:16]


def _midnight(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC)


def compute_period(period: str, start: date) -> list[Rollup]:
    begin, end = _midnight(period_begin(period, start)), _midnight(period_end(period, start))
    reports = Report.objects.describing().filter(received_at__gte=begin, received_at__lt=end)
    servers = reports.values("server_id").distinct().count()
    if not servers:
        return []
    latest = reports.values("server_id").annotate(latest=Max("id")).values("latest")
    counts: dict[tuple[str, str], int] = defaultdict(int)
    full = Report.objects.filter(pk__in=latest).values(*REPORT_FIELDS)
    for row in full.iterator(chunk_size=2000):
        for dimension, values in values_of(row).items():
            for value in values:
                if value:
                    counts[(dimension, value[:200])] += 1
    rows = [
        Rollup(period=period, period_start=start, dimension="servers", value="", servers=servers)
    ]
    rows += [
        Rollup(period=period, period_start=start, dimension=dimension, value=value, servers=n)
        for (dimension, value), n in counts.items()
    ]
    return rows


@transaction.atomic
def recompute(period: str, start: date) -> int:
    Rollup.objects.filter(period=period, period_start=start).delete()
    rows = compute_period(period, start)
    Rollup.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def touched_days(since_id: int, up_to_id: int) -> set[date]:
    return set(
        Report.objects.counted()
        .filter(id__gt=since_id, id__lte=up_to_id)
        .annotate(day=TruncDate("received_at"))
        .values_list("day", flat=True)
        .distinct()
    )


def touched_periods(days: set[date], today: date) -> set[tuple[str, date]]:
    """The calendar periods and 7-day windows that reports on ``days`` count in."""
    periods = {(period, period_start(period, day)) for day in days for period in PERIODS}
    for day in days:
        for offset in range(7):
            if day + timedelta(days=offset) <= today:
                periods.add((ADOPTION_WINDOW, day + timedelta(days=offset)))
    return periods


def update_rollups(progress=None, today: date | None = None) -> int:
    """Recompute what new reports (or a new day) changed; returns how many periods."""
    today = today or timezone.localdate()
    window_end = last_complete_day(today)
    with transaction.atomic():
        state, _ = RollupState.objects.select_for_update().get_or_create(pk=1)
        version = counting_version()
        if state.mapping_version != version:  # the mapping or test traffic changed: recount
            Rollup.objects.all().delete()
            state.last_report_id, state.windows_end = 0, None
            state.mapping_version = version
        newest = Report.objects.aggregate(newest=Max("id"))["newest"] or 0
        days = (
            touched_days(state.last_report_id, newest) if newest > state.last_report_id else set()
        )
        periods = touched_periods(days, today)
        if state.windows_end != window_end or any(day <= window_end for day in days):
            periods |= {(window, window_end) for window in WINDOWS}
            Rollup.objects.filter(period__in=list(WINDOWS)).exclude(
                period_start=window_end
            ).delete()
            state.windows_end = window_end
        for period, start in sorted(periods):
            recompute(period, start)
            if progress:
                progress(1)
        state.last_report_id = max(newest, state.last_report_id)
        state.save()
    if periods:
        bump_cache_version()
    return len(periods)


def rebuild_all(progress=None, today: date | None = None) -> int:
    RollupState.objects.update_or_create(
        pk=1, defaults={"last_report_id": 0, "windows_end": None, "mapping_version": ""}
    )
    return update_rollups(progress, today)
