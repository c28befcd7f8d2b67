import uuid

from django.db import models
from django.utils import timezone

# Stripe documents object ids of up to 255 characters; every field holding one is this long.
STRIPE_ID_MAX_LENGTH = 255
EVENT_TYPE_MAX_LENGTH = 80


class StripeEvent(models.Model):
    """Each webhook event once: a replay finds its id here and changes nothing."""

    event_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, unique=True)
    type = models.CharField(max_length=EVENT_TYPE_MAX_LENGTH)
    outcome = models.CharField(max_length=20, blank=True)
    reason = models.CharField(
        max_length=300, blank=True, help_text="Why it was ignored or rejected (see the log)"
    )
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-received_at"]
        verbose_name = "Stripe event"

    def __str__(self):
        return f"{self.type} {self.event_id}"


class OutboxItemQuerySet(models.QuerySet):
    def due(self, now=None):
        """Pending items whose next attempt has come."""
        return self.filter(
            status=OutboxItem.Status.PENDING, next_attempt_at__lte=now or timezone.now()
        )


class OutboxItem(models.Model):
    """A side effect (a Stripe call, a mail) written in the transaction that causes it,
    and delivered afterwards until it is done."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        STUCK = "stuck", "Stuck (needs staff)"
        WITHDRAWN = "withdrawn", "Withdrawn (undone before it was due)"

    # Which transitions the delivery and staff may make (see ``move_to``).
    ALLOWED = {
        Status.PENDING: {Status.DONE, Status.STUCK, Status.WITHDRAWN},
        Status.STUCK: {Status.PENDING},
        Status.DONE: set(),
        Status.WITHDRAWN: set(),
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
    done_at = models.DateTimeField(null=True, blank=True)

    objects = OutboxItemQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]

    def __str__(self):
        return f"{self.kind} #{self.pk} ({self.get_status_display()})"

    def move_to(self, status: str):
        """Change the status, refusing a transition the table does not allow."""
        if status not in self.ALLOWED[self.status]:
            raise ValueError(f"An outbox item cannot go from {self.status} to {status}.")
        self.status = status
