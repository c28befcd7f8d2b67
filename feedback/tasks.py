"""Celery tasks of the feedback app (entry points: they call services)."""

import logging

from celery import shared_task

from core.outage import OUTAGE_ERRORS
from core.outagelog import OutageLog
from feedback import services

logger = logging.getLogger(__name__)

# Each accepted report queues a task; during a database outage hundreds of them fail in
# a row. One short line when the outage starts (per worker process), one when a run gets
# through again; the reports stay pending and the beat sweep (every minute) retries them.
DATABASE_OUTAGE = OutageLog(logger, "database", "feedback reports left pending for the sweep")


def _outage_result(error) -> dict:
    DATABASE_OUTAGE.down(error)
    return {"processed": 0, "rejected": 0, "left_pending": True}


@shared_task(acks_late=True)
def process_raw_reports(ids=None):
    """Process the given reports (enqueued once they are committed)."""
    try:
        result = services.process_pending(
            batch_size=max(len(ids or []), 1) if ids else 500, ids=ids
        )
    except OUTAGE_ERRORS as error:
        return _outage_result(error)
    DATABASE_OUTAGE.up()
    return {"processed": result.processed, "rejected": result.rejected}


def enqueue_processing(ids: list[int]):
    """The handover the storage layer calls with the ids of committed reports."""
    try:
        process_raw_reports.delay(ids)
    except Exception:  # the broker is down: the beat sweep processes pending reports later
        logger.warning("could not enqueue processing of %d reports; left pending", len(ids))


@shared_task
def process_pending_reports():
    """The beat sweep: anything left pending (e.g. the broker was down) is processed."""
    try:
        result = services.process_all_pending()
    except OUTAGE_ERRORS as error:
        return _outage_result(error)
    DATABASE_OUTAGE.up()
    return {"processed": result.processed, "rejected": result.rejected}


@shared_task
def prune_raw_reports():
    return {"deleted": services.prune_raw_reports()}
