"""The transactional outbox: side effects that must follow a commit, and survive a broker
outage at that moment.

A service that causes a side effect (a mail, a Stripe call, an announcement) calls
``enqueue`` inside its transaction: the row commits with the change or not at all. After
the commit a task delivers it at once (best effort: with Redis down the enqueue is
logged and dropped, the row is not); the beat sweep (``outbox.tasks.sweep_outbox``,
every minute) delivers whatever is still pending, with a growing delay between attempts
(``outbox.delivery``). After ``OUTBOX_MAX_ATTEMPTS`` failures an item is "stuck": staff
see it in the admin and retry it.
"""

from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core import transitions
from outbox import delivery, registry
from outbox.models import OutboxItem

S = OutboxItem.Status


def enqueue(kind: str, *, not_before: datetime | None = None, **payload: Any) -> OutboxItem:
    """Record a side effect in the current transaction; it is delivered after the commit,
    or, with ``not_before`` (a datetime), by the sweep once that time has come: until
    then ``withdraw`` can take it back (an undo window). The payload is JSON."""
    registry.side_effect(kind)  # raises LookupError for an unregistered kind
    item = OutboxItem.objects.create(
        kind=kind, payload=payload, next_attempt_at=not_before or timezone.now()
    )
    if not_before is None:
        transaction.on_commit(lambda: delivery.deliver.delay(item.pk))
    return item


def withdraw(kind: str, **payload: Any) -> bool:
    """Take back the pending, never attempted items of ``kind`` with this payload; False
    when there was none (already delivered, being delivered, or never recorded)."""
    items = list(
        OutboxItem.objects.select_for_update(skip_locked=True).filter(
            kind=kind, status=S.PENDING, attempts=0, payload__contains=payload
        )
    )
    for item in items:
        transitions.step(item, "withdraw")
        item.save(update_fields=["status"])
    return bool(items)


def retry(items: QuerySet[OutboxItem]) -> int:
    """Staff send stuck items again from the first attempt; returns how many."""
    count = 0
    with transaction.atomic():
        for item in items.select_for_update().filter(status=S.STUCK):
            transitions.step(item, "retry")
            item.attempts = 0
            item.next_attempt_at = timezone.now()
            item.leased_until = None
            item.save(update_fields=["status", "attempts", "next_attempt_at", "leased_until"])
            transaction.on_commit(partial(delivery.deliver.delay, item.pk))
            count += 1
    return count


def replace_payload(item: OutboxItem, **payload: Any) -> None:
    """Give an item not yet delivered another payload (core.edge narrows a purge to the
    tables its transaction wrote, right after the commit)."""
    OutboxItem.objects.filter(pk=item.pk, status=OutboxItem.Status.PENDING).update(payload=payload)
