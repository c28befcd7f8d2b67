from decimal import Decimal
from typing import Any, Self

from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import F, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from payments.money import from_minor_units

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

    def __str__(self) -> str:
        return f"{self.type} {self.event_id}"


def _scaled(minor_units: int, currency: str) -> Decimal:
    return from_minor_units(minor_units, currency)


class PaymentQuerySet(models.QuerySet["Payment"]):
    def demo(self) -> Self:
        """Payments ``load_demo`` recorded: no money moved."""
        return self.filter(is_demo=True)

    def for_outer(self, model: type[models.Model] | models.Model) -> Self:
        """The payments of the outer query's row (a sponsorship, a donation): for
        ``Exists`` and ``Subquery``."""
        return self.filter(
            content_type=ContentType.objects.get_for_model(model, for_concrete_model=True),
            object_id=OuterRef("pk"),
        )

    def _with_returned(self) -> Self:
        """Each payment with ``returned_minor``: what refunds and withdrawing disputes
        took back (the database's count of ``Payment.taken_back_minor``, uncapped)."""

        def total(queryset: models.QuerySet[Any] | models.Manager[Any]) -> Coalesce:
            sums = queryset.filter(payment=OuterRef("pk")).order_by().values("payment")
            return Coalesce(Subquery(sums.annotate(t=Sum("amount_minor")).values("t")), Value(0))

        withdrawing = Dispute.objects.exclude(status__in=Dispute.KEEPS_THE_MONEY)
        return self.annotate(returned_minor=total(Refund.objects) + total(withdrawing))

    def returned_in_full(self) -> Self:
        """Payments whose whole amount went back (refunded, or taken by a dispute)."""
        return self._with_returned().filter(returned_minor__gte=F("amount_minor"))

    def keeping_money(self) -> Self:
        """Payments of which the foundation still keeps something."""
        return self._with_returned().filter(returned_minor__lt=F("amount_minor"))


class Payment(models.Model):
    """Money received through Stripe, whatever it paid for: a sponsorship's payment, a
    gift. What it paid for is ``paid_for`` (a sponsorship, a donation): payments names no
    app, the apps point at their payments with a ``GenericRelation``.

    The amount is kept in the currency's own minor unit, as Stripe counts it (cents for
    EUR, yen for JPY, thousandths for KWD), so no currency loses a digit."""

    stripe_id = models.CharField(
        max_length=STRIPE_ID_MAX_LENGTH, unique=True, help_text="Payment intent or invoice id"
    )
    # What a refund or a dispute names: the charge, or the payment intent that made it.
    payment_intent_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    charge_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    paid_for = GenericForeignKey("content_type", "object_id")
    amount_minor = models.PositiveBigIntegerField(help_text="In the currency's minor unit")
    currency = models.CharField(max_length=3)
    paid_at = models.DateTimeField()
    receipt_url = models.URLField(max_length=500, blank=True)
    is_demo = models.BooleanField(
        default=False, help_text="Demo content (manage.py load_demo): no money moved."
    )

    objects = PaymentQuerySet.as_manager()

    class Meta:
        ordering = ["-paid_at", "-id"]
        indexes = [models.Index(fields=["content_type", "object_id"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_minor__gt=0), name="payment_paid"),
            # One payment per charge and per payment intent (``recording.record_payment``
            # finds the one already recorded; these are the last guard against a second).
            models.UniqueConstraint(
                fields=["charge_id"],
                condition=~models.Q(charge_id=""),
                name="one_payment_per_charge",
            ),
            models.UniqueConstraint(
                fields=["payment_intent_id"],
                condition=~models.Q(payment_intent_id=""),
                name="one_payment_per_payment_intent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency} ({self.stripe_id})"

    @property
    def amount(self) -> Decimal:
        return _scaled(self.amount_minor, self.currency)

    @property
    def taken_back_minor(self) -> int:
        """What refunds and lost or open disputes took back, never more than was paid."""
        taken = sum(refund.amount_minor for refund in self.refunds.all()) + sum(
            dispute.amount_minor for dispute in self.disputes.all() if dispute.withdraws
        )
        return min(taken, self.amount_minor)

    @property
    def taken_back(self) -> Decimal:
        return _scaled(self.taken_back_minor, self.currency)

    @property
    def taken_back_by(self) -> str:
        """How the money went back: "refunded", "disputed" or "refunded and disputed"."""
        ways = []
        if any(refund.amount_minor for refund in self.refunds.all()):
            ways.append("refunded")
        if any(dispute.withdraws for dispute in self.disputes.all()):
            ways.append("disputed")
        return " and ".join(ways)

    @property
    def returned_in_full(self) -> bool:
        return self.taken_back_minor >= self.amount_minor

    @property
    def kept(self) -> Decimal:
        """What the payment still brings after refunds and disputes."""
        return _scaled(self.amount_minor - self.taken_back_minor, self.currency)


class Refund(models.Model):
    """What Stripe has refunded of one charge, in total (Stripe's ``amount_refunded``).

    Linked to the payment the charge made as soon as that payment is known; a refund whose
    payment is unknown counts nowhere."""

    stripe_charge_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, unique=True)
    payment = models.ForeignKey(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="refunds"
    )
    payment_intent_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    invoice_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    customer_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True)
    amount_minor = models.PositiveBigIntegerField(help_text="In the currency's minor unit")
    currency = models.CharField(max_length=3)
    refunded_at = models.DateTimeField()

    class Meta:
        ordering = ["-refunded_at", "-id"]

    def __str__(self) -> str:
        return f"refund of {self.amount} {self.currency} ({self.stripe_charge_id})"

    @property
    def amount(self) -> Decimal:
        return _scaled(self.amount_minor, self.currency)


class Dispute(models.Model):
    """A payer's bank disputing a charge: Stripe takes the amount back while it is open
    and keeps it when the dispute is lost; a won dispute returns it."""

    # Statuses of an inquiry (no money withdrawn) or a dispute the site won.
    KEEPS_THE_MONEY = frozenset(
        ["won", "warning_needs_response", "warning_under_review", "warning_closed", "prevented"]
    )

    stripe_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, unique=True)
    payment = models.ForeignKey(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes"
    )
    charge_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    payment_intent_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True)
    amount_minor = models.PositiveBigIntegerField(help_text="In the currency's minor unit")
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=40)
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["-opened_at", "-id"]

    def __str__(self) -> str:
        return f"dispute of {self.amount} {self.currency} ({self.stripe_id}, {self.status})"

    @property
    def amount(self) -> Decimal:
        return _scaled(self.amount_minor, self.currency)

    @property
    def withdraws(self) -> bool:
        return self.status not in self.KEEPS_THE_MONEY
