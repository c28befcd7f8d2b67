"""Invoices and receipts as issued: one numbered record each, whatever it is about.

A document refers to its subject (a sponsorship, a donation) by content type and id, and
to the occasion among that subject's (the Stripe invoice, the payment) by a key, so the
apps that take money keep their own tables and the numbering lives here, in one sequence
per kind. What the document says (issuer, buyer, lines, VAT, how to pay) is stored as it
was issued: a later change of address or price never alters an issued invoice.
"""

from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models


class Sequence(models.Model):
    """The last number given of one kind of document (gapless: taken under a row lock)."""

    kind = models.CharField(max_length=10, unique=True)
    last_number = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.kind}: {self.last_number}"


class IssuedDocumentQuerySet(models.QuerySet["IssuedDocument"]):
    def about(self, subject: models.Model) -> "IssuedDocumentQuerySet":
        return self.filter(
            subject_type=ContentType.objects.get_for_model(subject), subject_id=subject.pk
        )

    def invoices(self) -> "IssuedDocumentQuerySet":
        return self.filter(kind=IssuedDocument.Kind.INVOICE)

    def receipts(self) -> "IssuedDocumentQuerySet":
        return self.filter(kind=IssuedDocument.Kind.RECEIPT)

    def unpaid(self) -> "IssuedDocumentQuerySet":
        return self.invoices().filter(paid_on__isnull=True)


class IssuedDocument(models.Model):
    class Kind(models.TextChoices):
        INVOICE = "invoice", "Invoice"
        RECEIPT = "receipt", "Receipt"

    class PaidBy(models.TextChoices):
        CARD = "card", "Card, through Stripe"
        TRANSFER = "transfer", "Bank transfer"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    number = models.CharField(max_length=30, unique=True, help_text="e.g. INV-000042")
    subject_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    subject_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("subject_type", "subject_id")
    occasion = models.CharField(
        max_length=255, help_text="Which of the subject's: the Stripe invoice, the payment"
    )
    issued_on = models.DateField()
    due_on = models.DateField(null=True, blank=True)
    total = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    content = models.JSONField(help_text="Everything the document says, as issued")
    is_demo = models.BooleanField(default=False, help_text="Demo content: no money moved.")
    paid_on = models.DateField(null=True, blank=True, help_text="Invoices: when it was paid")
    paid_by = models.CharField(max_length=10, choices=PaidBy.choices, blank=True)

    objects = IssuedDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_on", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "subject_type", "subject_id", "occasion"],
                name="one_document_per_occasion",
            )
        ]
        indexes = [models.Index(fields=["subject_type", "subject_id"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.number}"

    @property
    def is_open(self) -> bool:
        return self.kind == self.Kind.INVOICE and self.paid_on is None
