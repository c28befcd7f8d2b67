"""Scheduled work of the releases app (entry points run by Celery beat)."""

from celery import shared_task

from releases import downloads
from releases.services import mirroring


@shared_task
def check_mirrors():
    """Record each active mirror's health and freshness (see docs/releases.md)."""
    checked = mirroring.check_mirrors()
    return {m.mirror_id: {"healthy": m.healthy, "fresh": m.fresh} for m in checked}


@shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def flush_download_counts():
    """Move the download counters kept in Redis into DownloadCount (releases.downloads)."""
    return {"moved": downloads.flush_download_counts()}
