"""Celery tasks of the feedback app (entry points: they call services)."""

import logging
import threading
import time

from celery import shared_task
from django.conf import settings

from core.outage import OUTAGE_ERRORS
from core.outagelog import OutageLog
from feedback.services import processing, retention

logger = logging.getLogger(__name__)

# Processing runs (woken by stored reports, and the beat sweep) fail in a row during a
# database outage. One short line when the outage starts (per worker process), one when a run gets
# through again; the reports stay pending and the beat sweep (every minute) retries them.
DATABASE_OUTAGE = OutageLog(logger, "database", "feedback reports left pending for the sweep")


def _outage_result(error) -> dict:
    DATABASE_OUTAGE.down(error)
    return {"processed": 0, "rejected": 0, "left_pending": True}


class Wake:
    """Wakes the sweep at most once per ``FEEDBACK_PROCESS_DELAY_SECONDS`` per web process.

    A report's commit calls it; the first in an interval sends one message, for a sweep
    that starts when the interval ends and processes everything pending by then. The
    others send nothing: no broker message per report (the beat sweep every minute is
    the backstop when the broker is down).
    """

    def __init__(self):
        self.next_at = 0.0
        self.lock = threading.Lock()

    def __call__(self, ids: list[int] | None = None):
        now = time.monotonic()
        if now < self.next_at:
            return
        delay = settings.FEEDBACK_PROCESS_DELAY_SECONDS
        with self.lock:
            if now < self.next_at:
                return
            self.next_at = now + delay
        try:
            process_pending_reports.apply_async(countdown=delay)
        except Exception:  # the broker is down: the beat sweep processes pending reports later
            logger.warning("could not wake processing; reports left pending for the sweep")


# The handover the storage layer calls with the ids of committed reports.
wake_processing = Wake()


@shared_task
def process_pending_reports():
    """The beat sweep: anything left pending (e.g. the broker was down) is processed."""
    try:
        result = processing.process_all_pending()
    except OUTAGE_ERRORS as error:
        return _outage_result(error)
    DATABASE_OUTAGE.up()
    return {"processed": result.processed, "rejected": result.rejected}


@shared_task
def prepare_partitions():
    """Daily: the raw reports' partitions for this month and the coming ones."""
    return {"created": [month.isoformat() for month in retention.prepare_partitions()]}


@shared_task
def prune_raw_reports():
    return {"deleted": retention.prune_raw_reports()}
