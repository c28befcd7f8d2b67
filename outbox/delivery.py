"""Delivery of the outbox: claim an item with a lease, carry it out, record the outcome.

Three steps, none holding a lock while the side effect runs:

1. *Claim*, in a short transaction: the claimable items (pending, due, no live lease) are
   selected with ``FOR UPDATE SKIP LOCKED`` and given ``leased_until = now + lease`` and
   one more attempt. Another delivery skips them until the lease runs out.
2. *Carry out* the registered function with no transaction open (a Stripe call or a mail
   server may take seconds; nothing is locked meanwhile). The function opens its own
   transactions for whatever it writes.
3. *Record* the outcome in one UPDATE that only applies while the lease is still this
   delivery's: done, pending again with a growing delay, or stuck after
   ``OUTBOX_MAX_ATTEMPTS``. A delivery that died mid-call leaves the item to be claimed
   again once its lease has run out (the attempt counts).

Delivery is at least once: each side effect is safe to repeat (Stripe calls carry the
item's idempotency key, which Stripe honours for 24 hours).
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core import transitions
from outbox import registry
from outbox.models import OutboxItem

logger = logging.getLogger(__name__)
S = OutboxItem.Status


def backoff(attempts: int) -> timedelta:
    seconds = settings.OUTBOX_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0)
    return timedelta(seconds=min(seconds, settings.OUTBOX_RETRY_MAX_SECONDS))


def claim(limit: int, item_id: int | None = None) -> list[OutboxItem]:
    """Lease up to ``limit`` claimable items (only ``item_id`` when given), oldest due first."""
    now = timezone.now()
    claimable = OutboxItem.objects.claimable(now)
    if item_id is not None:
        claimable = claimable.filter(pk=item_id)
    with transaction.atomic():
        ids = list(
            claimable.order_by("next_attempt_at", "pk")
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)[:limit]
        )
        OutboxItem.objects.filter(pk__in=ids).update(
            leased_until=now + timedelta(seconds=settings.OUTBOX_LEASE_SECONDS),
            attempts=F("attempts") + 1,
        )
        return list(OutboxItem.objects.filter(pk__in=ids).order_by("next_attempt_at", "pk"))


def carry_out(item: OutboxItem) -> str | None:
    """Run a claimed item's side effect, then record the outcome; returns the new status
    (None when the lease was lost meanwhile and another delivery owns the item)."""
    try:
        effect = registry.side_effect(item.kind)
        extra = {"idempotency_key": str(item.idempotency_key)} if effect.keyed else {}
        effect.function(**item.payload, **extra)
    # Whatever went wrong, the attempt is recorded and retried later, never lost.
    except Exception as error:
        return _record(item, error)
    return _record(item, None)


def _record(item: OutboxItem, error: Exception | None) -> str | None:
    now = timezone.now()
    changes: dict[str, object] = {"leased_until": None}
    if error is None:
        transitions.step(item, "finish")
        changes.update(done_at=now, last_error="")
    else:
        changes["last_error"] = f"{type(error).__name__}: {error}"[:500]
        stuck = item.attempts >= settings.OUTBOX_MAX_ATTEMPTS
        if stuck:
            transitions.step(item, "give_up")
        else:
            changes["next_attempt_at"] = now + backoff(item.attempts)
        log = logger.error if stuck else logger.warning
        log(
            "outbox item %s (%s) %s, attempt %s: %s",
            item.pk,
            item.kind,
            "stuck" if stuck else "failed",
            item.attempts,
            type(error).__name__,
        )
    recorded = OutboxItem.objects.filter(
        pk=item.pk, status=S.PENDING, leased_until=item.leased_until
    ).update(status=item.status, **changes)
    if not recorded:
        logger.warning("outbox item %s (%s): lease lost before the outcome", item.pk, item.kind)
        return None
    return item.status


@shared_task
def deliver(item_id: int) -> str | None:
    """Carry out one item if it is claimable (sent after the commit that wrote it);
    returns its new status (None: done, leased elsewhere, withdrawn, or not due yet)."""
    claimed = claim(1, item_id)
    return carry_out(claimed[0]) if claimed else None


@shared_task
def sweep() -> dict[str, int]:
    """Deliver one batch of the claimable items; a full batch first hands the rest to
    another sweep task, so idle workers take the next batch meanwhile. Returns how many
    of this batch ended in each status."""
    batch = claim(settings.OUTBOX_SWEEP_BATCH)
    if len(batch) == settings.OUTBOX_SWEEP_BATCH:
        sweep.delay()
    counts = {S.DONE.value: 0, S.PENDING.value: 0, S.STUCK.value: 0}
    for item in batch:
        status = carry_out(item)
        if status:
            counts[status] += 1
    return counts
