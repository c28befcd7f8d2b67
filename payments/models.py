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
