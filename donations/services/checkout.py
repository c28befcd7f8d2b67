"""Starting a gift, and what the thank-you page may say of it.

Live, a gift is paid on Stripe Checkout; in fake mode (``payments.gateway.fake_mode``)
the test card is typed on the donate page and sent to the fake from here. Either way
only Stripe's webhook events record money (``recording``).
"""

import logging
import uuid
from decimal import Decimal

from donations import signing, stripe_gateway
from donations.models import Donation

logger = logging.getLogger(__name__)
D = Donation.Status


class PaymentServiceUnavailable(Exception):
    """Stripe could not be reached or refused the request; nothing was saved."""


class CardRefused(Exception):
    """Fake mode: Stripe refused the test card; nothing was taken or kept. The message
    says why, for the donor."""


def thanks_url(base: str, reference) -> str:
    """The thank-you page of one gift: it says what Stripe has reported about it."""
    return f"{base}?gift={signing.manage_token(reference)}"


def start(
    *,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    public_name: str,
    show_on_wall: bool,
    user,
    thanks: str,
    cancel_url: str,
) -> str:
    """Open a Stripe Checkout session, then record the pending donation; returns its URL.

    Stripe answers first: if it cannot, no row is written and the caller says so.
    Stripe sends the donor back to ``thanks`` (the thank-you page), naming the gift.
    """
    reference = uuid.uuid4()
    frequency = Donation.Frequency.MONTHLY if monthly else Donation.Frequency.ONCE
    try:
        session_id, url = stripe_gateway.checkout_url(
            reference=str(reference),
            email=email,
            amount=amount,
            currency=currency,
            monthly=monthly,
            description=f"{frequency.label} gift to the MariaDB Foundation",
            success_url=thanks_url(thanks, reference),
            cancel_url=cancel_url,
        )
    except stripe_gateway.StripeError as error:
        logger.warning(
            "Stripe refused or could not open a donation checkout: %s", type(error).__name__
        )
        raise PaymentServiceUnavailable from error
    Donation.objects.create(
        reference=reference,
        email=email,
        user=user if user is not None and user.is_authenticated else None,
        amount=amount,
        currency=currency,
        frequency=frequency,
        public_name=public_name if show_on_wall else "",
        show_on_wall=show_on_wall,
        stripe_checkout_session_id=session_id,
    )
    return url


def give_by_card(
    *,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    public_name: str,
    show_on_wall: bool,
    user,
    card: dict,
) -> Donation:
    """Fake mode: charge the test card once, or subscribe it monthly; returns the
    donation, still pending: Stripe's events (payment_intent.succeeded for a one-off
    gift, invoice.payment_succeeded for each month) record the money.

    The donation is saved first, so an event that arrives before Stripe's answer finds
    it by the reference in its metadata. If Stripe refuses or cannot be reached, it is
    deleted again and CardRefused or PaymentServiceUnavailable says so.
    """
    frequency = Donation.Frequency.MONTHLY if monthly else Donation.Frequency.ONCE
    donation = Donation.objects.create(
        email=email,
        user=user if user is not None and user.is_authenticated else None,
        amount=amount,
        currency=currency,
        frequency=frequency,
        public_name=public_name if show_on_wall else "",
        show_on_wall=show_on_wall,
    )
    reference = str(donation.reference)
    try:
        payment_method = stripe_gateway.card_payment_method(card)
        if monthly:
            customer_id, subscription_id = stripe_gateway.subscribe_monthly(
                reference=reference,
                email=email,
                payment_method=payment_method,
                amount=amount,
                currency=currency,
            )
            ids = {"stripe_customer_id": customer_id, "stripe_subscription_id": subscription_id}
        else:
            intent_id = stripe_gateway.charge_once(
                reference=reference, payment_method=payment_method, amount=amount, currency=currency
            )
            ids = {"stripe_payment_intent_id": intent_id}
    except stripe_gateway.StripeError as error:
        Donation.objects.filter(pk=donation.pk, gifts__isnull=True).delete()
        if isinstance(error, stripe_gateway.UNREACHABLE) or (error.http_status or 500) >= 500:
            logger.warning("Stripe could not be reached for a card gift: %s", type(error).__name__)
            raise PaymentServiceUnavailable from error
        raise CardRefused(error.user_message or "Stripe refused the card.") from error
    # Only the ids: an event may have moved the status meanwhile.
    Donation.objects.filter(pk=donation.pk).update(**ids)
    donation.refresh_from_db()
    return donation


def payment_state(donation: Donation | None) -> str:
    """What the thank-you page may say of a gift: "confirmed" once Stripe reported money,
    "failed" when it reported none would come, "pending" until it reports, "none" when
    there is no gift at all."""
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
