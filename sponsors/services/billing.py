"""Starting to pay for a sponsorship: by card or Checkout through Stripe, or by invoice.
What Stripe then reports is recorded by ``sponsors.services.recording``."""

import logging
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from outbox import queue
from sponsors import agreements, stripe_gateway, stripe_objects, stripe_tasks
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services.transitions import PAYABLE, InvalidTransition, S, SponsorshipError

logger = logging.getLogger(__name__)


class PaymentFailed(SponsorshipError):
    pass


class StripeUnavailable(PaymentFailed):
    """Stripe could not be reached; nothing was charged and the invoice remains possible."""

    def __init__(self):
        super().__init__(
            "Our payment provider cannot be reached just now, so nothing was charged. "
            "Please try again in a few minutes, or pay by invoice instead."
        )


def _stripe_failure(error, fallback: str) -> PaymentFailed:
    if isinstance(error, stripe_gateway.UNREACHABLE):
        logger.warning("Stripe unreachable: %s", type(error).__name__)
        return StripeUnavailable()
    return PaymentFailed(error.user_message or fallback)


def pay_by_card(sponsorship: Sponsorship, payment_method_id: str):
    """Charge or subscribe through Stripe. Success is recorded by the webhook, not here."""
    organisation = sponsorship.organisation
    terms = sponsorship.terms
    try:
        customer = stripe_objects.ensure_customer(organisation)
        stripe_gateway.attach_default_payment_method(customer, payment_method_id)
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            made = {
                "subscription_id": stripe_gateway.subscribe(
                    customer,
                    stripe_objects.ensure_plan(sponsorship.tier),
                    sponsorship.pk,
                    payment_method_id,
                )
            }
        else:
            made = {
                "payment_intent_id": stripe_gateway.charge_once(
                    customer,
                    payment_method_id,
                    Decimal(terms["annual_price"]),
                    terms["currency"],
                    sponsorship.pk,
                )
            }
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    stripe_objects.store_payment_ids(sponsorship, **made)


def pay_with_card_details(sponsorship: Sponsorship, card: dict):
    """Test mode only: the card fields go to the fake Stripe, which makes a payment method."""
    try:
        payment_method = stripe_gateway.card_payment_method(card)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    pay_by_card(sponsorship, payment_method)


def start_checkout(sponsorship: Sponsorship, *, success_url: str, cancel_url: str) -> str:
    """Live mode: the URL of Stripe's hosted payment page for this sponsorship.

    The card never reaches this site. Success is recorded by the webhooks
    (checkout.session.completed, then invoice.paid or payment_intent.succeeded).
    """
    terms = sponsorship.terms
    try:
        session = {
            "customer_id": stripe_objects.ensure_customer(sponsorship.organisation),
            "sponsorship_id": sponsorship.pk,
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            session["plan_id"] = stripe_objects.ensure_plan(sponsorship.tier)
        else:
            session.update(
                amount=Decimal(terms["annual_price"]),
                currency=terms["currency"],
                description=sponsorship.title,
            )
        return stripe_gateway.checkout_url(**session)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "Stripe could not start the payment.") from error


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
