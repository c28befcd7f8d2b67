"""Scheduled work of the payments app (entry points run by Celery beat)."""

from celery import shared_task

from payments import outbox


@shared_task
def sweep_outbox():
    """Every minute: deliver the side effects a lost enqueue or a failure left pending."""
    return outbox.sweep()
