from celery import shared_task

from feedback import services


@shared_task(acks_late=True)
def process_raw_reports(ids=None):
    """Process the given reports (enqueued on commit by the endpoint)."""
    result = services.process_pending(batch_size=max(len(ids or []), 1) if ids else 500, ids=ids)
    return {"processed": result.processed, "rejected": result.rejected}


@shared_task
def process_pending_reports():
    """The beat sweep: anything left pending (e.g. the broker was down) is processed."""
    result = services.process_all_pending()
    return {"processed": result.processed, "rejected": result.rejected}


@shared_task
def prune_raw_reports():
    return {"deleted": services.prune_raw_reports()}
