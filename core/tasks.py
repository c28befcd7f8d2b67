from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "worker-heartbeat:{token}"


@shared_task
def record_worker_heartbeat(token: str) -> str:
    """Leave a mark in the cache that a worker ran; used by operators and the worker test."""
    stamp = timezone.now().isoformat()
    cache.set(HEARTBEAT_KEY.format(token=token), stamp, timeout=3600)
    return stamp
