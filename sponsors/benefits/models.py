"""What each tier promises (``Benefit``) and its delivery to each sponsorship (``Delivery``).

A benefit may need something from the sponsor first (a logo in given formats, a short
text, a link); its delivery then waits for the sponsor until they upload it on their
dashboard, and for staff until it is delivered.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from core.storage import private
from core.transitions import verb
from sponsors.models import Sponsorship, Tier


class Benefit(models.Model):
    class Asset(models.TextChoices):
        NONE = "none", "Nothing needed from the sponsor"
        LOGO = "logo", "A logo"
        TEXT = "text", "A short text"
        LINK = "link", "A link"

    tier = models.ForeignKey(Tier, on_delete=models.CASCADE, related_name="benefit_items")
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    asset = models.CharField(max_length=10, choices=Asset.choices, default=Asset.NONE)
    logo_formats = models.CharField(
        max_length=40, blank=True, default="svg,png", help_text="For logos: e.g. svg,png"
    )
    text_max_length = models.PositiveIntegerField(default=500, help_text="For texts: characters")
    due_days = models.PositiveSmallIntegerField(
        default=30, help_text="Due this many days after the sponsorship starts"
    )
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tier", "order", "name"]

    def __str__(self):
        return f"{self.name} ({self.tier})"

    @property
    def formats(self) -> list[str]:
        return [f.strip().lower() for f in self.logo_formats.split(",") if f.strip()]


class DeliveryQuerySet(models.QuerySet):
    def outstanding(self) -> "DeliveryQuerySet":
        return self.exclude(state=Delivery.State.DELIVERED)

    def due_by(self, day: date) -> "DeliveryQuerySet":
        return self.outstanding().filter(due_on__lte=day)

    def not_reminded_since(self, day: date) -> "DeliveryQuerySet":
        return self.filter(Q(reminded_on__isnull=True) | Q(reminded_on__lt=day))


class Delivery(models.Model):
    class State(models.TextChoices):
        TO_DO = "to_do", "To do (staff)"
        WAITING = "waiting", "Waiting for the sponsor"
        DELIVERED = "delivered", "Delivered"

    # How a delivery moves (core.transitions.apply, on its ``state``, each move a
    # DeliveryEvent): the sponsor hands over
    # what the benefit needs (again, until it is delivered); staff deliver it, only with
    # evidence of it given (``services.mark_delivered``).
    STATUS_FIELD = "state"
    VERBS = {
        "submit": verb(State.WAITING, State.TO_DO, to=State.TO_DO),
        "deliver": verb(State.WAITING, State.TO_DO, to=State.DELIVERED),
    }

    sponsorship = models.ForeignKey(
        Sponsorship, on_delete=models.CASCADE, related_name="benefit_deliveries"
    )
    benefit = models.ForeignKey(Benefit, on_delete=models.PROTECT, related_name="deliveries")
    state = models.CharField(max_length=10, choices=State.choices)
    due_on = models.DateField()
    asset_file = models.FileField(upload_to="benefits/%Y/", blank=True)
    asset_text = models.TextField(blank=True)
    asset_url = models.URLField(blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    delivered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reminded_on = models.DateField(null=True, blank=True)
    # What shows the benefit was given (the blog post, a photo of the stand, the passes
    # sent): a delivery is "delivered" only with one of these.
    evidence_url = models.URLField(blank=True, help_text="Where the delivered benefit is seen")
    evidence_file = models.FileField(
        upload_to="benefits/evidence/%Y/",
        storage=private,
        blank=True,
        help_text="Or a file showing it (kept private)",
    )

    objects = DeliveryQuerySet.as_manager()

    class Meta:
        ordering = ["due_on", "benefit__order"]
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["sponsorship", "benefit"], name="one_delivery_per_benefit"
            )
        ]

    def __str__(self):
        return f"{self.benefit.name} for {self.sponsorship.organisation}"

    @property
    def is_overdue(self) -> bool:
        return self.state != self.State.DELIVERED and self.due_on < timezone.localdate()


class DeliveryEvent(models.Model):
    """Every state change of a benefit's delivery (written by core.transitions): who
    handed over or marked delivered, and when."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=20, blank=True)
    to_status = models.CharField(max_length=20)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.from_status or 'new'} → {self.to_status}"
