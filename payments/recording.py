"""Recording what Stripe reports about money: payments, refunds and disputes, for every app.

Apps record a payment with what it paid for (a sponsorship, a donation); refunds and
disputes are recorded here from Stripe's events (``payments.handlers``), whatever they are
about. Every function is idempotent (rows are keyed by Stripe ids), makes no Stripe call
and runs in the caller's transaction. The one rule of the money: what refunds and disputes
take back of a payment never exceeds what it paid, in whatever order the events arrive
(``check_within_paid`` refuses an event that would; ``ledger`` caps what it counts).
"""

from datetime import datetime
from hashlib import blake2b

from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.db.models import Model, Q
from django.utils import timezone

from payments.events import Rejected
from payments.models import Dispute, Payment, Refund


def dated(reported: datetime | None, payment: Payment | None) -> datetime:
    """The moment a refund or dispute is counted at: the time it reports, bounded by its
    charge's payment and now. What an event says of its own time is the sender's word: it
    may not move money back before the payment it takes back (a refund "of 2001" of a
    gift of 2026 is counted on the gift's day), nor into the future (counted now). No time
    reported: now. One whose payment is not known yet counts nowhere (``ledger``); when the
    payment arrives, a time before it moves to the payment's (``_link_waiting``)."""
    now = timezone.now()
    moment = min(reported or now, now)
    return max(moment, payment.paid_at) if payment is not None else moment


def _ids(*values: str) -> list[str]:
    return [value for value in values if value]


def _lock(*stripe_ids: str) -> None:
    """Hold, until the transaction ends, a PostgreSQL advisory lock on each Stripe id (in
    one order, so two events never wait on each other): two events reporting the same
    charge, delivered at once, are recorded one after the other. The partial unique
    constraints on ``Payment.charge_id`` and ``payment_intent_id`` are the last guard."""
    if connection.vendor != "postgresql":
        return
    keys = sorted(
        {
            int.from_bytes(blake2b(i.encode(), digest_size=8).digest(), "big", signed=True)
            for i in stripe_ids
            if i
        }
    )
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def payment_reported(
    *, stripe_id: str, payment_intent_id: str = "", charge_id: str = ""
) -> Payment | None:
    """The payment already recorded for any of these ids, locked: an invoice, its payment
    intent and its charge are one payment, whichever event named which of them first."""
    intents = _ids(stripe_id, payment_intent_id)
    named = Q(stripe_id__in=intents) | Q(payment_intent_id__in=intents)
    if charge_id:
        named |= Q(charge_id=charge_id)
    return Payment.objects.select_for_update().filter(named).order_by("pk").first()


@transaction.atomic
def record_payment(
    paid_for: Model,
    *,
    stripe_id: str,
    amount_minor: int,
    currency: str,
    paid_at: datetime,
    receipt_url: str = "",
    payment_intent_id: str = "",
    charge_id: str = "",
    is_demo: bool = False,
    only_one: bool = False,
) -> tuple[Payment, bool]:
    """The payment these ids report (made when new) and whether it is new.

    One payment per charge: an invoice, the payment intent that paid it and its charge are
    one payment, in whatever order their events arrive (``invoice.paid`` names all three,
    ``payment_intent.succeeded`` its intent and latest charge). A second report of a known
    payment only adds the ids it lacked and answers ``created=False``, so the caller counts
    nothing twice. With ``only_one`` (a one-off gift) what it paid for accepts a single
    payment: a different one is rejected, for staff to look at."""
    currency = currency.upper()
    _lock(stripe_id, payment_intent_id, charge_id)
    payment = payment_reported(
        stripe_id=stripe_id, payment_intent_id=payment_intent_id, charge_id=charge_id
    )
    paid_for_type = ContentType.objects.get_for_model(paid_for)
    if payment is None:
        if only_one:
            other = Payment.objects.filter(content_type=paid_for_type, object_id=paid_for.pk)
            if first := other.values_list("stripe_id", flat=True).first():
                raise Rejected(
                    f"{stripe_id} would be a second payment of what {first} already paid"
                )
        payment = Payment.objects.create(
            stripe_id=stripe_id,
            paid_for=paid_for,
            amount_minor=amount_minor,
            currency=currency,
            paid_at=paid_at,
            receipt_url=receipt_url,
            payment_intent_id=payment_intent_id,
            charge_id=charge_id,
            is_demo=is_demo,
        )
        _link_waiting(payment)
        return payment, True
    if (payment.content_type_id, payment.object_id) != (paid_for_type.pk, paid_for.pk):
        raise Rejected(f"{stripe_id} is already recorded as the payment of something else")
    changed = []
    for field, value in (
        ("payment_intent_id", payment_intent_id),
        ("charge_id", charge_id),
        ("receipt_url", receipt_url),
    ):
        if value and not getattr(payment, field):
            setattr(payment, field, value)
            changed.append(field)
    if changed:
        payment.save(update_fields=changed)
    _link_waiting(payment)
    return payment, False


def _link_waiting(payment: Payment) -> None:
    """Refunds and disputes that arrived before the payment they name."""
    intents = _ids(payment.stripe_id, payment.payment_intent_id)
    refunds = Q(payment_intent_id__in=intents) | Q(invoice_id=payment.stripe_id)
    disputes = Q(payment_intent_id__in=intents)
    if payment.charge_id:
        refunds |= Q(stripe_charge_id=payment.charge_id)
        disputes |= Q(charge_id=payment.charge_id)
    waiting = {"payment__isnull": True, "currency": payment.currency}
    # none is counted before the payment it takes back (``dated``)
    Refund.objects.filter(refunds, refunded_at__lt=payment.paid_at, **waiting).update(
        refunded_at=payment.paid_at
    )
    Dispute.objects.filter(disputes, opened_at__lt=payment.paid_at, **waiting).update(
        opened_at=payment.paid_at
    )
    Refund.objects.filter(refunds, **waiting).update(payment=payment)
    Dispute.objects.filter(disputes, **waiting).update(payment=payment)


def payment_named(
    *, charge_id: str = "", payment_intent_id: str = "", invoice_id: str = ""
) -> Payment | None:
    """The payment a charge, payment intent or invoice made, locked; None when unknown."""
    named = Q(stripe_id__in=_ids(payment_intent_id, invoice_id))
    if payment_intent_id:
        named |= Q(payment_intent_id=payment_intent_id)
    if charge_id:
        named |= Q(charge_id=charge_id)
    return Payment.objects.select_for_update().filter(named).order_by("pk").first()


def check_within_paid(
    payment: Payment, currency: str, amount_minor: int, *, refund_of: str = "", dispute: str = ""
) -> None:
    """Refuse a refund or dispute that would take back more than the payment paid, counting
    what the payment's other refunds and withdrawing disputes take (not the charge
    ``refund_of``'s earlier total, nor the dispute ``dispute``'s earlier state)."""
    if currency.upper() != payment.currency:
        raise Rejected(
            f"it is in {currency.upper()}, the payment {payment.stripe_id} in {payment.currency}"
        )
    refunds = payment.refunds.exclude(stripe_charge_id=refund_of)
    disputes = payment.disputes.exclude(stripe_id=dispute)
    taken = sum(refund.amount_minor for refund in refunds) + sum(
        item.amount_minor for item in disputes if item.withdraws
    )
    if taken + amount_minor > payment.amount_minor:
        raise Rejected(
            f"it would take back {taken + amount_minor} of the {payment.amount_minor} "
            f"({payment.currency} minor units) that {payment.stripe_id} paid"
        )


@transaction.atomic
def record_refund(
    *,
    charge_id: str,
    payment_intent_id: str,
    invoice_id: str,
    customer_id: str,
    amount_minor: int,
    currency: str,
    refunded_at: datetime | None,
) -> Refund:
    """Keep what has been refunded of a charge: the largest total Stripe reports for it,
    dated by ``dated`` (the reported time within its payment's date and now).

    Stripe's ``amount_refunded`` is cumulative and its events may arrive in any order, so
    an older, smaller total never replaces a larger one."""
    currency = currency.upper()
    payment = payment_named(
        charge_id=charge_id, payment_intent_id=payment_intent_id, invoice_id=invoice_id
    )
    refund = Refund.objects.select_for_update().filter(stripe_charge_id=charge_id).first()
    if refund is not None and refund.amount_minor >= amount_minor:
        return refund  # an older total, delivered late
    if payment is not None:
        check_within_paid(payment, currency, amount_minor, refund_of=charge_id)
    refund, _ = Refund.objects.update_or_create(
        stripe_charge_id=charge_id,
        defaults={
            "payment": payment,
            "payment_intent_id": payment_intent_id,
            "invoice_id": invoice_id,
            "customer_id": customer_id,
            "amount_minor": amount_minor,
            "currency": currency,
            "refunded_at": dated(refunded_at, payment),
        },
    )
    return refund


@transaction.atomic
def record_dispute(
    *,
    dispute_id: str,
    charge_id: str,
    payment_intent_id: str,
    amount_minor: int,
    currency: str,
    status: str,
    opened_at: datetime | None,
) -> Dispute:
    """A dispute as Stripe last reported it: opened, then won (the money returns) or lost;
    dated by ``dated`` (its own time within its payment's date and now)."""
    currency = currency.upper()
    payment = payment_named(charge_id=charge_id, payment_intent_id=payment_intent_id)
    if payment is not None and status not in Dispute.KEEPS_THE_MONEY:
        check_within_paid(payment, currency, amount_minor, dispute=dispute_id)
    dispute, _ = Dispute.objects.update_or_create(
        stripe_id=dispute_id,
        defaults={
            "payment": payment,
            "charge_id": charge_id,
            "payment_intent_id": payment_intent_id,
            "amount_minor": amount_minor,
            "currency": currency,
            "status": status,
            "opened_at": dated(opened_at, payment),
        },
    )
    return dispute
