"""Scheduled work of the releases app (entry points run by Celery beat)."""

from celery import shared_task

from releases import services


@shared_task
def check_mirrors():
    """Record each active mirror's health and freshness (see docs/releases.md)."""
    checked = services.check_mirrors()
    return {m.mirror_id: {"healthy": m.healthy, "fresh": m.fresh} for m in checked}
