"""Issuing invoices and receipts (numbered from one sequence per kind) and closing an
invoice once it is paid. Idempotent: a document is issued once per subject and occasion,
so a replayed webhook or a retried outbox item finds the one already issued."""

from dataclasses import asdict
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from invoicing import mail, vat
from invoicing.issuer import bank_account, issuer
from invoicing.models import IssuedDocument, Sequence
from outbox import queue

PREFIXES: dict[str, str] = {
    IssuedDocument.Kind.INVOICE: "INV-",
    IssuedDocument.Kind.RECEIPT: "RCT-",
}
K = IssuedDocument.Kind


def find(kind: str, subject: Model, occasion: str) -> IssuedDocument | None:
    return IssuedDocument.objects.about(subject).filter(kind=kind, occasion=occasion).first()


def vat_block(treatment: vat.Treatment, total: Decimal) -> dict[str, object]:
    net, tax = treatment.split(total)
    return {**asdict(treatment), "rate": str(treatment.rate), "net": str(net), "tax": str(tax)}


@transaction.atomic
def issue(
    kind: str,
    subject: Model,
    occasion: str,
    *,
    total: Decimal,
    currency: str,
    buyer: dict[str, object],
    lines: list[dict[str, Any]],
    treatment: vat.Treatment | None = None,
    no_vat_reason: str = "",
    paid: dict[str, object] | None = None,
    online: dict[str, object] | None = None,
    due_on: date | None = None,
    issued_on: date | None = None,
    is_demo: bool = False,
) -> IssuedDocument:
    """Issue the ``kind`` document of ``subject`` for ``occasion`` (or return the one
    issued before). ``treatment``: the VAT of a sale; gifts carry ``no_vat_reason``.
    ``paid`` (receipts): when and how; ``online`` (invoices): Stripe's hosted page or why
    there is none."""
    existing = find(kind, subject, occasion)
    if existing is not None:
        return existing
    # The row exists from the migration on; made here too (a flushed test database), safely
    # under a race: the conflicting insert is skipped and both wait for the one row's lock.
    Sequence.objects.bulk_create([Sequence(kind=kind)], ignore_conflicts=True)
    sequence = Sequence.objects.select_for_update().get(kind=kind)
    existing = find(kind, subject, occasion)  # issued while this waited for the lock
    if existing is not None:
        return existing
    sequence.last_number += 1
    sequence.save(update_fields=["last_number"])
    number = f"{PREFIXES[kind]}{sequence.last_number:06d}"
    content: dict[str, object] = {
        "issuer": issuer(),
        "buyer": buyer,
        "lines": [{**line, "amount": str(line["amount"])} for line in lines],
        "vat": vat_block(treatment, total) if treatment else None,
        "no_vat_reason": no_vat_reason,
        "paid": paid,
        "demo": is_demo,
    }
    if kind == K.INVOICE:
        content["payment"] = {**bank_account(), "reference": number, **(online or {})}
    return IssuedDocument.objects.create(
        kind=kind,
        number=number,
        subject_type=ContentType.objects.get_for_model(subject),
        subject_id=subject.pk,
        occasion=occasion,
        issued_on=issued_on or timezone.localdate(),
        due_on=due_on,
        total=total,
        currency=currency.upper(),
        content=content,
        is_demo=is_demo,
    )


def mark_paid(invoice: IssuedDocument, paid_by: str, paid_on: date | None = None) -> IssuedDocument:
    """Close an invoice (idempotent: the first payment recorded closes it)."""
    if invoice.paid_on is None:
        invoice.paid_on = paid_on or timezone.localdate()
        invoice.paid_by = paid_by
        invoice.save(update_fields=["paid_on", "paid_by"])
    return invoice


# One fresh link per document in this many seconds, however often the button is pressed.
FRESH_LINK_QUIET_SECONDS = 600


def send_fresh_link(document: IssuedDocument) -> None:
    """Mail a fresh link to ``document`` to the address it was issued to (at most one
    every FRESH_LINK_QUIET_SECONDS; with the cache unreachable, each press sends one)."""
    if cache.add(f"invoicing:fresh-link:{document.pk}", 1, FRESH_LINK_QUIET_SECONDS):
        with transaction.atomic():
            queue.enqueue(mail.FRESH_LINK, document_id=document.pk)
