"""Celery tasks of the feedback app (entry points: they call services)."""

import logging

from celery import shared_task

from feedback import services

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def process_raw_reports(ids=None):
    """Process the given reports (enqueued once they are committed)."""
    result = services.process_pending(batch_size=max(len(ids or []), 1) if ids else 500, ids=ids)
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
    result = services.process_all_pending()
    return {"processed": result.processed, "rejected": result.rejected}


@shared_task
def prune_raw_reports():
    return {"deleted": services.prune_raw_reports()}
