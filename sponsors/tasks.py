"""Scheduled work of the sponsors app (entry points run by Celery beat)."""

from celery import shared_task

from sponsors.services import lifecycle


@shared_task
def run_sponsorship_renewals():
    return lifecycle.run_renewals()
