import uuid
from datetime import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from core.transitions import verb


class OutboxItemQuerySet(models.QuerySet["OutboxItem"]):
    def due(self, now: datetime | None = None) -> "OutboxItemQuerySet":
        """Pending items whose next attempt has come (leased or not)."""
        return self.filter(
            status=OutboxItem.Status.PENDING, next_attempt_at__lte=now or timezone.now()
        )

    def claimable(self, now: datetime | None = None) -> "OutboxItemQuerySet":
        """Due items no delivery holds: never leased, or their lease has run out."""
        now = now or timezone.now()
        return self.due(now).filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))


class OutboxItem(models.Model):
    """A side effect (a mail, a Stripe call, an announcement) written in the transaction
    that causes it, and delivered afterwards until it is done."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        STUCK = "stuck", "Stuck (needs staff)"
        WITHDRAWN = "withdrawn", "Withdrawn (undone before it was due)"

    # How an item moves (core.transitions.step): the delivery finishes it or gives up
    # after the last attempt; its service withdraws it before it is due; staff retry it.
    VERBS = {
        "finish": verb(Status.PENDING, to=Status.DONE),
        "give_up": verb(Status.PENDING, to=Status.STUCK),
        "withdraw": verb(Status.PENDING, to=Status.WITHDRAWN),
        "retry": verb(Status.STUCK, to=Status.PENDING),
    }

    kind = models.CharField(max_length=80, help_text="The registered side effect")
    payload = models.JSONField(default=dict)
    idempotency_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    leased_until = models.DateTimeField(
        null=True, blank=True, help_text="A delivery is carrying it out until then"
    )
    done_at = models.DateTimeField(null=True, blank=True)

    objects = OutboxItemQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.get_status_display()})"
