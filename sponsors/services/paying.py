"""Starting the card payment of a sponsorship (once, or yearly by subscription).

The card is typed into Stripe.js's card element on the pay page and goes from the browser
to Stripe only. The steps, each one request of the page's script:

1. ``start``: the organisation's Stripe customer and a SetupIntent, whose client secret
   the browser confirms with the card (``confirmCardSetup``; Stripe may ask for 3-D
   Secure there).
2. ``pay``: the server reads the confirmed SetupIntent from Stripe and charges its card:
   a PaymentIntent for one year, a subscription for a yearly one. When Stripe asks for
   3-D Secure, the browser answers it (``confirmCardPayment``), then
3. ``check``: the server asks Stripe where the payment stands.

Nothing here records money: Stripe's events do (``billing.record_payment``, through the
webhook). No Stripe call is made inside a database transaction. A payment is made once:
one SetupIntent makes one payment (its id is in the idempotency key), a payment already
made or waiting for 3-D Secure is answered instead of another one, and two requests for
the same sponsorship at the same moment are refused (a short lock in the cache).
"""

import logging
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from core import transitions
from outbox import queue
from payments import gateway
from payments.money import minor_units
from sponsors import documents, stripe_gateway, stripe_objects
from sponsors.models import Sponsorship
from sponsors.services import lifecycle
from sponsors.services.transitions import PAYABLE, SponsorshipError

logger = logging.getLogger(__name__)

Attempt = gateway.Attempt
# How long a request holds the sponsorship's payment lock: longer than its Stripe calls.
LOCK_SECONDS = 120


class PaymentFailed(SponsorshipError):
    pass


class StripeUnavailable(PaymentFailed):
    """Stripe could not be reached; nothing was charged and the invoice remains possible."""

    def __init__(self) -> None:
        super().__init__(
            "Our payment provider cannot be reached just now, so nothing was charged. "
            "Please try again in a few minutes, or pay by invoice instead."
        )


class NotPayable(PaymentFailed):
    pass


class Busy(PaymentFailed):
    def __init__(self) -> None:
        super().__init__(
            "A payment for this sponsorship is already under way. Wait a moment, then look "
            "at your dashboard before paying again."
        )


def _stripe_failure(error: stripe_gateway.StripeError) -> PaymentFailed:
    if isinstance(error, stripe_gateway.UNREACHABLE) or (error.http_status or 500) >= 500:
        logger.warning("Stripe unreachable or failing: %s", type(error).__name__)
        return StripeUnavailable()
    logger.warning("Stripe refused a sponsorship payment call: %s", type(error).__name__)
    return PaymentFailed(error.user_message or "Stripe refused the payment.")


def _annual(sponsorship: Sponsorship, renewal: bool = False) -> bool:
    """Paid by a yearly subscription (a renewal by card is one payment for one term)."""
    return not renewal and sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL


def _check_payable(sponsorship: Sponsorship, renewal: bool = False) -> None:
    if renewal:
        if not lifecycle.renewable(sponsorship):
            raise NotPayable("This sponsorship cannot be renewed now.")
        if documents.open_invoice(sponsorship) or sponsorship.renewal_invoice_requested_for:
            raise NotPayable("An invoice for the next term is open: pay it to renew.")
        return
    if sponsorship.is_paid or sponsorship.status not in PAYABLE:
        raise NotPayable("This sponsorship needs no payment now.")
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        raise NotPayable("This sponsorship is paid by invoice.")


def _recorded(sponsorship: Sponsorship, payment_intent_id: str) -> bool:
    recorded: bool = sponsorship.payments.filter(
        Q(stripe_id=payment_intent_id) | Q(payment_intent_id=payment_intent_id)
    ).exists()
    return recorded


def current(sponsorship: Sponsorship, renewal: bool = False) -> Attempt:
    """Where the payment last made for the sponsorship stands at Stripe (``NOTHING``
    when none was made; for a renewal, when the last one is already recorded)."""
    intent = sponsorship.stripe_payment_intent_id
    try:
        if _annual(sponsorship, renewal) and sponsorship.stripe_subscription_id:
            return gateway.subscription_attempt(sponsorship.stripe_subscription_id)
        if not _annual(sponsorship, renewal) and intent:
            if renewal and _recorded(sponsorship, intent):
                return gateway.NOTHING  # it paid an earlier term
            return gateway.payment_attempt(intent)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error) from error
    return gateway.NOTHING


def start(sponsorship: Sponsorship, renewal: bool = False) -> dict[str, Any]:
    """A SetupIntent for the card: ``{"id", "client_secret"}`` for the browser. Raises
    NotPayable when a payment was already made (or is waiting for 3-D Secure).
    ``renewal``: the card pays the next term of a running sponsorship, once."""
    _check_payable(sponsorship, renewal)
    if current(sponsorship, renewal).done:
        raise NotPayable("A payment of this sponsorship is already made or under way.")
    try:
        customer = stripe_objects.ensure_customer(sponsorship.organisation)
        return gateway.create_setup_intent(
            customer,
            {"sponsorship": str(sponsorship.pk)},
            recurring=_annual(sponsorship, renewal),
        )
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error) from error


def pay(sponsorship: Sponsorship, setup_intent_id: str, renewal: bool = False) -> Attempt:
    """Charge the card of the browser's confirmed SetupIntent, once."""
    _check_payable(sponsorship, renewal)
    lock = f"sponsorship-{sponsorship.pk}-paying"
    if not cache.add(lock, setup_intent_id, LOCK_SECONDS):
        raise Busy()
    try:
        return _pay(sponsorship, setup_intent_id, renewal)
    finally:
        cache.delete(lock)


def _pay(sponsorship: Sponsorship, setup_intent_id: str, renewal: bool) -> Attempt:
    before = current(sponsorship, renewal)
    if before.done:
        return before  # already paid: no second payment
    try:
        card = gateway.confirmed_card(setup_intent_id)
    except gateway.NotConfirmed as error:
        raise PaymentFailed("The card was not confirmed with Stripe: nothing was taken.") from error
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error) from error
    if (
        card.metadata.get("sponsorship") != str(sponsorship.pk)
        or card.customer_id != sponsorship.organisation.stripe_customer_id
    ):
        raise PaymentFailed("This card was confirmed for another payment: nothing was taken.")
    if before.status == "requires_action":
        if before.payment_method == card.payment_method_id:
            return before  # this very attempt, sent twice: still waiting for 3-D Secure
        _let_go(sponsorship, renewal)  # one left waiting (a closed tab) gives way to this card
    terms = sponsorship.terms
    if renewal and sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
        renew_term_by_term(sponsorship)
    try:
        gateway.use_card(card)
        if _annual(sponsorship, renewal):
            subscription = stripe_gateway.subscribe(
                card.customer_id,
                stripe_objects.ensure_plan(sponsorship.tier),
                sponsorship.pk,
                card.payment_method_id,
            )
            stripe_objects.store_payment_ids(sponsorship, subscription_id=subscription)
        else:
            intent = gateway.charge(
                card,
                minor_units(Decimal(terms["annual_price"]), terms["currency"]),
                terms["currency"],
                {"sponsorship": str(sponsorship.pk)},
                key=f"sponsorship-{sponsorship.pk}-{setup_intent_id}-payment",
            )
            stripe_objects.store_payment_ids(sponsorship, payment_intent_id=intent)
    except gateway.CardError as error:
        return gateway.refused(error)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error) from error
    return check(sponsorship, renewal)


def check(sponsorship: Sponsorship, renewal: bool = False) -> Attempt:
    """Where the payment stands after the browser answered 3-D Secure. A failed one is
    let go (a subscription left incomplete is cancelled), so the sponsor may try again."""
    attempt = current(sponsorship, renewal)
    if attempt.status == "failed":
        _let_go(sponsorship, renewal)
    return attempt


@transaction.atomic
def renew_term_by_term(sponsorship: Sponsorship) -> None:
    """A yearly card renewal that was stopped (its subscription ends at Stripe) renews by
    card one term at a time from now on: nothing will charge it again on its own."""
    locked = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if locked.payment_method != Sponsorship.Payment.CARD_ANNUAL:
        return
    locked.payment_method = sponsorship.payment_method = Sponsorship.Payment.CARD_ONCE
    locked.save(update_fields=["payment_method"])
    transitions.record(
        locked, note="renewed by card for one term: the yearly card renewal was stopped"
    )


def _let_go(sponsorship: Sponsorship, renewal: bool = False) -> None:
    """Forget the failed or abandoned attempt first, so that Stripe's event about its
    cancellation matches no sponsorship and ends nothing; then cancel it at Stripe: a
    subscription through the outbox once this commits, a payment left waiting for 3-D
    Secure at once (the next attempt must not find it still payable)."""
    annual = _annual(sponsorship, renewal)
    subscription = sponsorship.stripe_subscription_id if annual else ""
    intent = "" if annual else sponsorship.stripe_payment_intent_id
    stripe_objects.forget_payment_ids(
        sponsorship, subscription_id=subscription, payment_intent_id=intent
    )
    if subscription:
        queue.enqueue(gateway.CANCEL_SUBSCRIPTION, subscription_id=subscription)
        return
    try:
        if intent and _waits_for_3ds(intent):
            gateway.cancel_payment_intent(intent)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error) from error


def _waits_for_3ds(payment_intent_id: str) -> bool:
    return gateway.payment_attempt(payment_intent_id).status == "requires_action"
