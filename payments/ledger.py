"""The income side of the one ledger: every payment, less what refunds and disputes took
back, described by the app whose object it paid for (``payments.income``).

A payment is income on the day it was paid; a refund or a dispute that withdrew money is
negative income on its own day. What is taken back of one payment is counted oldest first
and never beyond what the payment paid, so no order of events, no forged refund and no
refund that arrived before its payment can push a figure below nothing.
"""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db.models import Manager, QuerySet
from django.db.models.functions import ExtractYear
from django.utils import timezone

from payments.income import DISPUTE, REFUND, Income, payers
from payments.models import Dispute, Payment, Refund
from payments.money import from_minor_units


def _taken_back(payment_ids: Iterable[int]) -> dict[int, list[tuple[datetime, int, str]]]:
    """Per payment, (when, minor units, REFUND or DISPUTE) of each refund and withdrawing
    dispute, oldest first, capped so that their sum never exceeds the payment."""
    paid = dict(Payment.objects.filter(pk__in=payment_ids).values_list("pk", "amount_minor"))
    moves: defaultdict[int, list[tuple[datetime, int, str]]] = defaultdict(list)
    refunds = Refund.objects.filter(payment_id__in=paid).values_list(
        "payment_id", "refunded_at", "amount_minor"
    )
    for payment, when, amount in refunds:
        moves[payment].append((when, amount, REFUND))
    for dispute in Dispute.objects.filter(payment_id__in=paid):
        if dispute.withdraws and dispute.payment_id is not None:  # never None: filtered
            moves[dispute.payment_id].append((dispute.opened_at, dispute.amount_minor, DISPUTE))
    capped = {}
    for payment, items in moves.items():
        left, kept = paid[payment], []
        for when, amount, kind in sorted(items):
            taken = min(amount, left)
            left -= taken
            if taken:
                kept.append((when, taken, kind))
        capped[payment] = kept
    return capped


def _movements(year: int) -> Iterator[tuple[tuple[Any, ...], datetime, int, str]]:
    """(payment row, when, signed minor units, REFUND, DISPUTE or "") of every payment and
    taking back in ``year``."""
    fields = ("pk", "content_type_id", "object_id", "currency", "is_demo")
    payments = {
        row[0]: row
        for row in Payment.objects.filter(paid_at__year=year).values_list(
            *fields, "paid_at", "amount_minor"
        )
    }
    for row in payments.values():
        yield row[:5], row[5], row[6], ""
    touched = set(
        Refund.objects.filter(refunded_at__year=year, payment__isnull=False)
        .order_by()
        .values_list("payment_id", flat=True)
        .union(
            Dispute.objects.filter(opened_at__year=year, payment__isnull=False)
            .order_by()
            .values_list("payment_id", flat=True)
        )
    )
    if not touched:
        return
    rows = {row[0]: row for row in Payment.objects.filter(pk__in=touched).values_list(*fields)}
    for payment, items in _taken_back(touched).items():
        for when, amount, kind in items:
            if timezone.localtime(when).year == year:
                yield rows[payment], when, -amount, kind


def income_in(year: int) -> list[Income]:
    """The year's income, oldest first: payments positive, what was taken back negative.
    A payment for an object no app describes is left out."""
    kinds = {
        ContentType.objects.get_for_model(model).pk: describe
        for model, describe in payers().items()
    }
    movements = list(_movements(year))
    ids = defaultdict(set)
    for (_, kind, object_id, _, _), _, _, _ in movements:
        ids[kind].add(object_id)
    described = {kind: kinds[kind](found) for kind, found in ids.items() if kind in kinds}
    found = []
    for (_, kind, object_id, currency, demo), when, amount, taken_back_by in movements:
        description = described.get(kind, {}).get(object_id)
        if description is None:
            continue
        programme, contributor, *public = description
        found.append(
            Income(
                when,
                currency.upper(),
                from_minor_units(amount, currency),
                programme,
                contributor,
                demo,
                public[0] if public else "",
                taken_back_by,
            )
        )
    return sorted(found, key=lambda item: item.paid_at)


def years_with_income() -> set[int]:
    """Every year a payment, or a refund or dispute of a known payment, happened in."""

    def years(queryset: QuerySet[Any] | Manager[Any], field: str) -> QuerySet[Any, int]:
        found: QuerySet[Any, int] = (
            queryset.order_by().annotate(year=ExtractYear(field)).values_list("year", flat=True)
        )
        return found

    return set(
        years(Payment.objects, "paid_at").union(
            years(Refund.objects.filter(payment__isnull=False), "refunded_at"),
            years(Dispute.objects.filter(payment__isnull=False), "opened_at"),
        )
    )
