"""Scheduled work of the outbox (the entry point Celery beat runs)."""

from celery import shared_task

from outbox import delivery


@shared_task
def sweep_outbox() -> dict[str, int]:
    """Every minute: deliver the side effects a lost enqueue or a failure left pending."""
    return delivery.sweep()
