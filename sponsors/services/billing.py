"""Paying a sponsorship by invoice instead of by card, and the payments Stripe reports.
The card payment is started in ``paying``."""

import logging
from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from outbox import queue
from payments.validation import Rejected
from sponsors import agreements, mail, stripe_tasks
from sponsors.models import Payment, Sponsorship, SponsorshipEvent
from sponsors.services.lifecycle import activate
from sponsors.services.transitions import PAYABLE, InvalidTransition, S

logger = logging.getLogger(__name__)


@transaction.atomic
def pay_by_invoice_instead(sponsorship: Sponsorship, actor) -> Sponsorship:
    """The sponsor gives up on the card (Stripe unreachable, or no card at hand).

    Before approval the invoice goes out when staff approve; after approval it goes out now.
    """
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.is_paid or sponsorship.status not in PAYABLE:
        raise InvalidTransition("This sponsorship needs no payment now.")
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        return sponsorship
    sponsorship.payment_method = Sponsorship.Payment.INVOICE
    changed, note = ["payment_method"], "payment by invoice instead of card"
    if sponsorship.agreement_id is not None:
        # The accepted text names the way to pay: the pay page showed the invoice wording,
        # and pressing its button accepts the agreement with it.
        sponsorship.agreement_text = agreements.render(
            sponsorship.agreement.text,
            organisation=sponsorship.organisation.name,
            terms=sponsorship.terms,
            payment_method=Sponsorship.Payment.INVOICE,
        )
        sponsorship.accepted_by, sponsorship.accepted_at = actor, timezone.now()
        changed += ["agreement_text", "accepted_by", "accepted_at"]
        note += "; agreement accepted with the invoice wording"
    sponsorship.save(update_fields=changed)
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        actor=actor,
        note=note,
    )
    if sponsorship.status == S.AWAITING_PAYMENT:
        queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def link_stripe_objects(sponsorship_id: int, *, subscription_id="", payment_intent_id="", note=""):
    """Remember the subscription or payment Stripe created for a sponsorship. Idempotent."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    changed = []
    if subscription_id and sponsorship.stripe_subscription_id != subscription_id:
        sponsorship.stripe_subscription_id = subscription_id
        changed.append("stripe_subscription_id")
    if payment_intent_id and sponsorship.stripe_payment_intent_id != payment_intent_id:
        sponsorship.stripe_payment_intent_id = payment_intent_id
        changed.append("stripe_payment_intent_id")
    if changed:
        sponsorship.save(update_fields=changed)
        if note:
            SponsorshipEvent.objects.create(
                sponsorship=sponsorship,
                from_status=sponsorship.status,
                to_status=sponsorship.status,
                note=note,
            )
    return sponsorship


@transaction.atomic
def record_payment(
    sponsorship_id: int, *, stripe_id: str, amount: Decimal, currency: str, paid_at, receipt_url=""
):
    """A payment arrived (from a verified webhook). Idempotent per Stripe object id.

    A payment in another currency than the sponsorship's terms is rejected: it would be
    counted as the sponsorship's income in a currency it was never priced in."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    expected = str(sponsorship.terms.get("currency", "")).upper()
    if currency.upper() != expected:
        raise Rejected(f"it pays in {currency.upper()}, the sponsorship is priced in {expected}")
    _payment, created = Payment.objects.get_or_create(
        stripe_id=stripe_id,
        defaults={
            "sponsorship": sponsorship,
            "amount": amount,
            "currency": currency.upper(),
            "paid_at": paid_at,
            "receipt_url": receipt_url,
        },
    )
    if not created:
        return sponsorship
    first = sponsorship.paid_at is None
    sponsorship.paid_at = max(filter(None, [sponsorship.paid_at, paid_at]))
    sponsorship.save(update_fields=["paid_at"])
    if sponsorship.status == S.AWAITING_PAYMENT:
        activate(sponsorship)
    elif sponsorship.status in (S.EXPIRING, S.LAPSED) and not first:
        sponsorship.ends_on = max(sponsorship.ends_on or timezone.localdate(), timezone.localdate())
        activate(sponsorship)
    elif sponsorship.status == S.ACTIVE and not first:
        sponsorship.ends_on = (sponsorship.ends_on or timezone.localdate()) + timedelta(days=365)
        sponsorship.save(update_fields=["ends_on"])
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=S.ACTIVE,
            to_status=S.ACTIVE,
            note=f"renewed by payment {stripe_id}",
        )
    else:
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=sponsorship.status,
            to_status=sponsorship.status,
            note=f"payment {stripe_id} received",
        )
    return sponsorship


def payment_failed(sponsorship_id: int):
    """Stripe reported a failed charge: tell the sponsor after the commit."""
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship_id, what="payment_failed")
