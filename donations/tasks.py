"""Scheduled work of the donations app (entry points run by Celery beat)."""

from celery import shared_task

from donations.services import giving


@shared_task
def expire_abandoned_donations():
    return giving.expire_abandoned()
