"""Gifts from individuals, the Stripe events that moved them, and the yearly goal.

A ``Donation`` is one intention to give (one-off or monthly); each payment it causes is
a ``Gift`` (one for a one-off donation, one per paid invoice for a monthly one): the
payments app's ``Payment``, which also keeps its refunds and disputes. The public funding
page reads only aggregates of these rows.
"""

import uuid
from pathlib import PurePath

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.db.models import Exists, Q
from django.utils import timezone

from core.storage import private
from core.transitions import verb
from payments.models import Payment, PaymentQuerySet


class DonationQuerySet(models.QuerySet):
    def of_user(self, user):
        """Gifts made while signed in, or to any e-mail address the account has verified."""
        emails = user.emailaddress_set.filter(verified=True).values_list("email", flat=True)
        return self.filter(Q(user=user) | Q(email__in=emails))

    def given(self):
        """Donations that have moved money at least once."""
        return self.filter(gifts__isnull=False).distinct()

    def abandoned(self, before):
        """Gifts started before then that are still waiting for a payment Stripe never
        reported (the page was closed during 3-D Secure): no money, nothing to keep."""
        return self.filter(
            status=Donation.Status.PENDING, created_at__lt=before, gifts__isnull=True
        )

    def keeping_money(self):
        """Donations of which the foundation keeps some money: a donor whose every gift
        was refunded (or taken back by a dispute) gave nothing in the end."""
        return self.filter(Exists(Payment.objects.keeping_money().for_outer(self.model)))

    def on_donor_wall(self):
        return self.keeping_money().filter(show_on_wall=True).exclude(public_name="")


class Donation(models.Model):
    class Frequency(models.TextChoices):
        ONCE = "once", "One-off"
        MONTHLY = "monthly", "Monthly"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for payment"
        PAID = "paid", "Paid"
        ACTIVE = "active", "Active (monthly)"
        PAST_DUE = "past_due", "Payment failed"
        CANCELLED = "cancelled", "Cancelled"

    # How a donation moves (core.transitions.apply, each move a DonationEvent naming the
    # Stripe object that moved it): a payment pays a one-off gift or keeps a monthly one active, after a failed
    # payment too; a payment fails; the gift ends.
    VERBS = {
        "pay": verb(Status.PENDING, Status.PAST_DUE, to=Status.PAID),
        "pay_monthly": verb(Status.PENDING, Status.PAST_DUE, to=Status.ACTIVE),
        "fail_payment": verb(
            Status.PENDING, Status.ACTIVE, Status.PAID, Status.PAST_DUE, to=Status.PAST_DUE
        ),
        "cancel": verb(
            Status.PENDING, Status.ACTIVE, Status.PAID, Status.PAST_DUE, to=Status.CANCELLED
        ),
    }

    reference = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    email = models.EmailField(blank=True, help_text="Given on the donate page.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="donations",
    )
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    frequency = models.CharField(max_length=10, choices=Frequency.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    public_name = models.CharField(
        max_length=80, blank=True, help_text="Shown on the donor wall only when allowed."
    )
    show_on_wall = models.BooleanField(default=False)
    stripe_customer_id = models.CharField(max_length=255, blank=True, db_index=True)
    stripe_subscription_id = models.CharField(max_length=255, blank=True, db_index=True)
    stripe_payment_intent_id = models.CharField(max_length=255, blank=True, db_index=True)
    cancel_requested_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the donor cancelled a monthly gift on this site; Stripe's "
        "customer.subscription.deleted event then marks it cancelled.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The money it moved, kept by the payments app (refunds and disputes hang from it).
    gifts = GenericRelation("donations.Gift", related_query_name="donation")

    objects = DonationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return (
            f"{self.amount} {self.currency} {self.get_frequency_display().lower()} ({self.email})"
        )

    @property
    def card_can_be_changed(self) -> bool:
        """A running monthly gift, not being cancelled: what Stripe's page is offered for
        (a card to update, an amount to change). A one-off or cancelled gift has none."""
        return (
            bool(self.stripe_customer_id)
            and self.frequency == self.Frequency.MONTHLY
            and self.status in (self.Status.ACTIVE, self.Status.PAST_DUE)
            and self.cancel_requested_at is None
        )

    @property
    def pay_verb(self) -> str:
        """A payment makes a one-off gift paid and a monthly one active."""
        return "pay_monthly" if self.frequency == self.Frequency.MONTHLY else "pay"


class GiftManager(models.Manager.from_queryset(PaymentQuerySet)):
    def get_queryset(self):
        return (
            super()
            .get_queryset()
            .filter(content_type__app_label="donations", content_type__model="donation")
        )


class Gift(Payment):
    """Money received for a donation (a paid one-off donation or one paid invoice of a
    monthly one): the payments app's record, seen from donations. Its refunds and disputes
    are ``gift.refunds`` and ``gift.disputes``."""

    objects = GiftManager()

    class Meta:
        proxy = True

    @property
    def donation(self) -> Donation:
        return self.paid_for


class FundingGoal(models.Model):
    year = models.PositiveSmallIntegerField()
    currency = models.CharField(max_length=3, default="EUR")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    description = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-year"]
        constraints = [
            models.UniqueConstraint(fields=["year", "currency"], name="one_goal_per_year_currency")
        ]

    def __str__(self):
        return f"{self.year}: {self.amount} {self.currency}"


def receipt_path(expense, filename: str) -> str:
    """An unguessable name in the private folder: receipts are reached from the admin only."""
    return f"donations/receipts/{uuid.uuid4().hex}{PurePath(filename).suffix.lower()}"


class Expense(models.Model):
    """Money the foundation spent, recorded by staff; one ledger entry each."""

    class Category(models.TextChoices):
        INFRASTRUCTURE = "infrastructure", "Infrastructure and hosting"
        ENGINEERING = "engineering", "Engineering staff and contractors"
        COMMUNITY = "community", "Community, events and travel"
        ADMINISTRATION = "administration", "Administration, legal and accounting"
        OTHER = "other", "Other"

    spent_on = models.DateField()
    category = models.CharField(max_length=20, choices=Category.choices)
    description = models.CharField(max_length=200, help_text="Shown on the public funding page.")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3, default="EUR")
    # Private: the web server hands MEDIA_ROOT to anyone; a receipt (names, addresses, bank
    # details) is handed out by the admin's view after its permission check.
    receipt = models.FileField(
        upload_to=receipt_path,
        storage=private,
        blank=True,
        help_text="PDF, PNG or JPEG, up to 5 MiB. Kept private: staff open it from here.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    is_demo = models.BooleanField(
        default=False, editable=False, help_text="Demo content (load_demo): no money was spent."
    )

    class Meta:
        ordering = ["-spent_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="expense_amount_positive")
        ]

    def __str__(self):
        return f"{self.spent_on}: {self.amount} {self.currency} {self.get_category_display()}"


class DonationEvent(models.Model):
    """Every status change of a donation (written by core.transitions): from what, to
    what, when, and who or which Stripe event moved it."""

    donation = models.ForeignKey(Donation, on_delete=models.CASCADE, related_name="events")
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
