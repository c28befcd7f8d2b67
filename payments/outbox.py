"""The transactional outbox: side effects that survive a broker outage.

A service that causes a side effect (a Stripe call, a mail) calls ``add`` inside its
transaction: the row commits with the change or not at all. After the commit a task
delivers it at once (best effort: with Redis down the enqueue is logged and dropped,
the row is not); the beat sweep (``payments.tasks.sweep_outbox``, every minute) delivers
whatever is still pending, with a growing delay between attempts. After
``OUTBOX_MAX_ATTEMPTS`` failures an item is "stuck": staff see it in the admin and retry it.

Apps register their side effects by kind in ``AppConfig.ready()``; this module knows no
app. Delivery is at least once: each side effect is safe to repeat (Stripe calls carry
the item's idempotency key, which Stripe honours for 24 hours).
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from payments.models import OutboxItem

logger = logging.getLogger(__name__)
S = OutboxItem.Status


@dataclass(frozen=True)
class SideEffect:
    function: Callable
    keyed: bool  # called with idempotency_key=<the item's key>


_registry: dict[str, SideEffect] = {}


def register(kind: str, function: Callable, *, keyed: bool = False):
    _registry[kind] = SideEffect(function, keyed)


def registered_kinds() -> list[str]:
    return sorted(_registry)


def add(kind: str, *, not_before=None, **payload) -> OutboxItem:
    """Record a side effect in the current transaction; it is delivered after the commit,
    or, with ``not_before`` (a datetime), by the sweep once that time has come: until
    then ``withdraw`` can take it back (an undo window)."""
    if kind not in _registry:
        raise LookupError(f"no side effect is registered as {kind!r}")
    item = OutboxItem.objects.create(
        kind=kind, payload=payload, next_attempt_at=not_before or timezone.now()
    )
    if not_before is None:
        transaction.on_commit(lambda: deliver.delay(item.pk))
    return item


def withdraw(kind: str, **payload) -> bool:
    """Take back the pending, never attempted items of ``kind`` with this payload; False
    when there was none (already delivered, being delivered, or never recorded)."""
    items = list(
        OutboxItem.objects.select_for_update(skip_locked=True).filter(
            kind=kind, status=S.PENDING, attempts=0, payload__contains=payload
        )
    )
    for item in items:
        item.move_to(S.WITHDRAWN)
        item.save(update_fields=["status"])
    return bool(items)


def backoff(attempts: int) -> timedelta:
    seconds = settings.OUTBOX_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0)
    return timedelta(seconds=min(seconds, settings.OUTBOX_RETRY_MAX_SECONDS))


@shared_task
def deliver(item_id: int) -> str | None:
    """Carry out one pending item that is due; returns its new status (None: done, taken
    elsewhere, withdrawn, or not due yet)."""
    with transaction.atomic():
        item = (
            OutboxItem.objects.select_for_update(skip_locked=True).due().filter(pk=item_id).first()
        )
        if item is None:
            return None
        item.attempts += 1
        try:
            effect = _registry.get(item.kind)
            if effect is None:
                raise LookupError(f"no side effect is registered as {item.kind!r}")
            extra = {"idempotency_key": str(item.idempotency_key)} if effect.keyed else {}
            with transaction.atomic():  # a failed side effect leaves no half-written rows
                effect.function(**item.payload, **extra)
        # Whatever went wrong, the attempt is recorded and retried later, never lost.
        except Exception as error:
            item.last_error = f"{type(error).__name__}: {error}"[:500]
            if item.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
                item.move_to(S.STUCK)
                logger.error(
                    "outbox item %s (%s) stuck after %s attempts: %s",
                    item.pk,
                    item.kind,
                    item.attempts,
                    type(error).__name__,
                )
            else:
                item.next_attempt_at = timezone.now() + backoff(item.attempts)
                logger.warning(
                    "outbox item %s (%s) failed, attempt %s: %s",
                    item.pk,
                    item.kind,
                    item.attempts,
                    type(error).__name__,
                )
        else:
            item.move_to(S.DONE)
            item.done_at = timezone.now()
            item.last_error = ""
        item.save()
        return item.status


def sweep(limit: int = 200) -> dict:
    """Deliver the pending items that are due; returns how many ended in each status."""
    counts = {S.DONE.value: 0, S.PENDING.value: 0, S.STUCK.value: 0}
    due = OutboxItem.objects.due().order_by("next_attempt_at").values_list("pk", flat=True)
    for item_id in list(due[:limit]):
        status = deliver(item_id)
        if status:
            counts[status] += 1
    return counts


def retry(items) -> int:
    """Staff send stuck items again from the first attempt; returns how many."""
    count = 0
    with transaction.atomic():
        for item in items.select_for_update().filter(status=S.STUCK):
            item.move_to(S.PENDING)
            item.attempts = 0
            item.next_attempt_at = timezone.now()
            item.save(update_fields=["status", "attempts", "next_attempt_at"])
            transaction.on_commit(lambda pk=item.pk: deliver.delay(pk))
            count += 1
    return count
