"""How long raw reports are kept: the monthly partitions made ahead of time, and pruning."""

import logging
from collections.abc import Callable
from datetime import date, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from feedback import partitions

logger = logging.getLogger(__name__)


def prepare_partitions() -> list[date]:
    """Make this month's partition of the raw reports and the next
    ``FEEDBACK_PARTITIONS_AHEAD`` months' (the daily task)."""
    months = partitions.months_from(timezone.now(), 1 + settings.FEEDBACK_PARTITIONS_AHEAD)
    return partitions.create_partitions(connection, months)


def prune_raw_reports(
    older_than_days: int | None = None, progress: Callable[[int], object] | None = None
) -> int:
    """Drop the raw bytes of processed or rejected reports older than the retention age;
    returns how many raw reports went.

    Whole months go: a month's partition is dropped once the whole month is older than the
    retention age and none of its reports is still pending (so raw bytes stay up to a
    month longer than the age). The parsed Report rows stay; pending reports are never
    pruned, so nothing unprocessed is lost.
    """
    days = older_than_days or settings.FEEDBACK_RAW_RETENTION_DAYS
    cutoff = timezone.now() - timedelta(days=days)
    _dropped, rows, kept = partitions.drop_partitions_before(connection, cutoff)
    for month in kept:
        logger.warning("feedback: raw reports of %s kept: some are still pending", month)
    if progress and rows:
        progress(rows)
    return rows
