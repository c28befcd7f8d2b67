"""Starting a gift by card (once, or monthly by subscription), and what the thank-you page
may say of it.

The card is typed into Stripe.js's card element on the donate page and goes from the
browser to Stripe only. The page's script asks, one step at a time:

1. ``start``: a Stripe customer for the gift and a SetupIntent, whose client secret the
   browser confirms with the card (``confirmCardSetup``; Stripe may ask for 3-D Secure).
2. ``pay``: the donation is saved (pending, under the reference Stripe holds in the
   SetupIntent's metadata) and the card Stripe attached is charged once or subscribed
   monthly. When Stripe asks for 3-D Secure the browser answers it
   (``confirmCardPayment``), then
3. ``check``: the server asks Stripe where the payment stands.

Only Stripe's webhook events record money (``recording``). No Stripe call is made inside
a database transaction. One SetupIntent makes one donation (its reference is unique) and
one payment (the reference is in the idempotency keys). A gift whose payment failed is
deleted again and its subscription cancelled: nothing was taken, nothing is kept. So is a
gift left waiting for its payment (``expire_abandoned``, hourly).
"""

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from donations import signing, stripe_gateway
from donations.models import Donation
from outbox import queue
from payments import gateway

logger = logging.getLogger(__name__)
D = Donation.Status
Attempt = gateway.Attempt


class PaymentServiceUnavailable(Exception):
    """Stripe could not be reached or failed; nothing was taken or kept."""


class CardRefused(Exception):
    """Stripe refused the card or the step; nothing was taken or kept. The message says
    why, for the donor."""


@dataclass(frozen=True)
class Gift:
    email: str
    amount: Decimal
    currency: str
    monthly: bool
    public_name: str
    show_on_wall: bool
    user: object = None


def thanks_url(base: str, reference) -> str:
    """The thank-you page of one gift: it says what Stripe has reported about it."""
    return f"{base}?gift={signing.manage_token(reference)}"


def _failure(error: stripe_gateway.StripeError) -> Exception:
    if isinstance(error, stripe_gateway.UNREACHABLE) or (error.http_status or 500) >= 500:
        logger.warning("Stripe could not be reached for a card gift: %s", type(error).__name__)
        return PaymentServiceUnavailable()
    logger.warning("Stripe refused a card gift call: %s", type(error).__name__)
    return CardRefused(error.user_message or "Stripe refused the payment.")


def start(gift: Gift) -> dict:
    """A SetupIntent for the donor's card: ``{"id", "client_secret"}`` for the browser."""
    reference = str(uuid.uuid4())
    try:
        customer = stripe_gateway.create_customer(reference=reference, email=gift.email)
        return gateway.create_setup_intent(
            customer, {"donation": reference}, recurring=gift.monthly
        )
    except stripe_gateway.StripeError as error:
        raise _failure(error) from error


def _confirmed(setup_intent_id: str) -> tuple[gateway.ConfirmedCard, str]:
    try:
        card = gateway.confirmed_card(setup_intent_id)
        reference = str(uuid.UUID(card.metadata.get("donation", "")))
    except (gateway.NotConfirmed, ValueError) as error:
        raise CardRefused("The card was not confirmed with Stripe.") from error
    except stripe_gateway.StripeError as error:
        raise _failure(error) from error
    return card, reference


def pay(gift: Gift, setup_intent_id: str) -> tuple[Donation, Attempt]:
    """Save the gift and charge the card of the browser's confirmed SetupIntent, once."""
    card, reference = _confirmed(setup_intent_id)
    user = gift.user if gift.user is not None and gift.user.is_authenticated else None
    donation, created = Donation.objects.get_or_create(
        reference=reference,
        defaults={
            "email": gift.email,
            "user": user,
            "amount": gift.amount,
            "currency": gift.currency,
            "frequency": Donation.Frequency.MONTHLY if gift.monthly else Donation.Frequency.ONCE,
            "public_name": gift.public_name if gift.show_on_wall else "",
            "show_on_wall": gift.show_on_wall,
            "stripe_customer_id": card.customer_id,
        },
    )
    if not created:  # the same step sent twice: no second payment
        return donation, current(donation)
    try:
        gateway.use_card(card)
        if gift.monthly:
            ids = {
                "stripe_subscription_id": stripe_gateway.subscribe_monthly(
                    reference=reference, card=card, amount=gift.amount, currency=gift.currency
                )
            }
        else:
            ids = {
                "stripe_payment_intent_id": stripe_gateway.charge_once(
                    reference=reference, card=card, amount=gift.amount, currency=gift.currency
                )
            }
    except gateway.CardError as error:
        _let_go(donation)
        return donation, gateway.refused(error)
    except stripe_gateway.StripeError as error:
        _let_go(donation)
        raise _failure(error) from error
    # Only the ids: an event may have moved the status meanwhile.
    Donation.objects.filter(pk=donation.pk).update(**ids)
    donation.refresh_from_db()
    return donation, check(donation)


def check_confirmed(setup_intent_id: str) -> tuple[Donation | None, Attempt]:
    """Where the gift of the browser's SetupIntent stands, after 3-D Secure."""
    _card, reference = _confirmed(setup_intent_id)
    donation = find(reference)
    if donation is None:
        return None, Attempt("failed", message="Stripe made no payment.")
    return donation, check(donation)


def current(donation: Donation) -> Attempt:
    try:
        if donation.stripe_subscription_id:
            return gateway.subscription_attempt(donation.stripe_subscription_id)
        if donation.stripe_payment_intent_id:
            return gateway.payment_attempt(donation.stripe_payment_intent_id)
    except stripe_gateway.StripeError as error:
        raise _failure(error) from error
    return Attempt("processing")  # the other request of a double submit is still at Stripe


def check(donation: Donation) -> Attempt:
    """Where the gift's payment stands; a failed one is let go."""
    attempt = current(donation)
    if attempt.status == "failed":
        _let_go(donation)
    return attempt


def _let_go(donation: Donation):
    """Nothing was taken: the gift is deleted (unless Stripe recorded money meanwhile);
    its subscription, if any, is cancelled through the outbox once this commits."""
    Donation.objects.filter(pk=donation.pk, gifts__isnull=True).delete()
    if donation.stripe_subscription_id:
        queue.enqueue(gateway.CANCEL_SUBSCRIPTION, subscription_id=donation.stripe_subscription_id)


def payment_state(donation: Donation | None) -> str:
    """What the thank-you page may say of a gift: "confirmed" once Stripe reported money,
    "failed" when it reported none would come, "pending" until it reports (the payment
    is processing), "none" when there is no gift at all."""
    if donation is None:
        return "none"
    if donation.gifts.exists():
        return "confirmed"
    if donation.status in (D.PAST_DUE, D.CANCELLED):
        return "failed"
    return "pending"


def find(reference: str) -> Donation | None:
    try:
        return Donation.objects.filter(reference=uuid.UUID(str(reference))).first()
    except ValueError:
        return None


def expire_abandoned() -> int:
    """Delete the gifts left waiting for a payment longer than
    ``DONATION_ABANDONED_AFTER_HOURS`` (the page was closed during 3-D Secure, so Stripe
    will never report one): they counted nowhere public, and no page shows them any more.
    A gift Stripe recorded money for meanwhile is kept. Returns how many were deleted."""
    before = timezone.now() - timedelta(hours=settings.DONATION_ABANDONED_AFTER_HOURS)
    _, by_model = Donation.objects.abandoned(before).delete()
    return by_model.get(Donation._meta.label, 0)
