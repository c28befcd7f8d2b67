"""Paying a sponsorship by invoice instead of by card. The card payment is started in
``sponsors.services.paying``; what Stripe then reports is recorded by
``sponsors.services.recording``."""

import logging

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core import transitions
from core.transitions import TransitionRefused
from outbox import queue
from sponsors import agreements, documents, stripe_tasks
from sponsors.models import Sponsorship
from sponsors.services import lifecycle
from sponsors.services.transitions import PAYABLE, Actor, S

logger = logging.getLogger(__name__)


@transaction.atomic
def pay_by_invoice_instead(sponsorship: Sponsorship, actor: User | None) -> Sponsorship:
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
    if sponsorship.agreement is not None:
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
    transitions.record(sponsorship, actor=actor, note=note)
    if sponsorship.status == S.AWAITING_PAYMENT:
        queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def renew(sponsorship: Sponsorship, actor: Actor) -> Sponsorship:
    """Renew a running sponsorship by invoice: an invoice for the next term (the year after
    the paid one, named by its dates) is issued after the commit, paid by bank transfer or
    on Stripe's invoice page where Stripe gives one. Its payment buys that term, whatever
    day it arrives. Refused while an invoice is open or being issued."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if not lifecycle.renewable(sponsorship):
        raise TransitionRefused("This sponsorship cannot be renewed now.")
    if documents.open_invoice(sponsorship) or sponsorship.renewal_invoice_requested_for:
        raise TransitionRefused("An invoice is already open: pay it to renew.")
    term = sponsorship.next_term
    if term is None:  # renewable: running, so it has a next term
        raise TransitionRefused("This sponsorship cannot be renewed now.")
    sponsorship.renewal_invoice_requested_for = term.starts_on
    changed, note = ["renewal_invoice_requested_for"], ""
    if sponsorship.payment_method != Sponsorship.Payment.INVOICE:
        # A card payer who asks for the invoice renews by invoice from now on: nothing
        # charges the card again on its own (a stopped yearly renewal stays stopped).
        sponsorship.payment_method = Sponsorship.Payment.INVOICE
        changed.append("payment_method")
        note = "; paid by invoice from now on"
    sponsorship.save(update_fields=changed)
    queue.enqueue(
        stripe_tasks.SEND_INVOICE,
        sponsorship_id=sponsorship.pk,
        term_starts_on=term.starts_on.isoformat(),
    )
    transitions.record(
        sponsorship,
        actor=actor,
        note=f"renewal invoice for the term {term} requested by the sponsor{note}",
    )
    return sponsorship
