"""Paying a sponsorship by invoice instead of by card. The card payment is started in
``sponsors.services.paying``; what Stripe then reports is recorded by
``sponsors.services.recording``."""

import logging

from django.db import transaction
from django.utils import timezone

from core.transitions import TransitionRefused
from outbox import queue
from sponsors import agreements, documents, stripe_tasks
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services import lifecycle
from sponsors.services.transitions import PAYABLE, S

logger = logging.getLogger(__name__)


@transaction.atomic
def pay_by_invoice_instead(sponsorship: Sponsorship, actor) -> Sponsorship:
    """The sponsor gives up on the card (Stripe unreachable, or no card at hand).

    Before approval the invoice goes out when staff approve; after approval it goes out now.
    """
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.is_paid or sponsorship.status not in PAYABLE:
        raise TransitionRefused("This sponsorship needs no payment now.")
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
def renew(sponsorship: Sponsorship, actor):
    """Renew a running year ahead of its end: an invoice for the next year is issued after
    the commit (paid by bank transfer, or by card on Stripe's invoice page where Stripe
    gives one). Its payment adds the next year to the end of the paid one."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if not lifecycle.renewable(sponsorship):
        raise TransitionRefused("This sponsorship cannot be renewed now.")
    if documents.open_invoice(sponsorship):
        raise TransitionRefused("An invoice is already open: pay it to renew.")
    queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        actor=actor,
        note="renewal invoice requested by the sponsor",
    )
