"""What a gift asks of Stripe, in the donations' terms, made through ``payments.gateway``
(the one place that calls Stripe).

Every create call carries an idempotency key derived from the donation's reference (and
what is asked), so a repeated request makes one object; the services store the ids the
calls return. The card is confirmed in the browser (Stripe.js) on a SetupIntent of the
donor's customer; the gift is then charged once, or subscribed monthly, here. The
donation's reference travels in the metadata of what Stripe makes (the customer, the
payment intent, the subscription and its invoice lines), so every webhook names its
donation. Stripe's customer portal is where a donor updates the card of a monthly gift.
"""

from decimal import Decimal

from payments import gateway
from payments.gateway import UNREACHABLE, ConfirmedCard, StripeError, charge
from payments.money import minor_units

__all__ = ["UNREACHABLE", "StripeError"]

PRODUCT_NAME = "Monthly gift to the MariaDB Foundation"


def create_customer(*, reference: str, email: str) -> str:
    """The donor's customer at Stripe for one gift; returns its id."""
    return gateway.create_customer(
        f"donation-{reference}-customer", email=email, metadata={"donation": reference}
    )


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a donor changes or cancels a gift and downloads invoices."""
    return gateway.customer_portal_url(customer_id, return_url)


def charge_once(*, reference: str, card: ConfirmedCard, amount: Decimal, currency: str) -> str:
    """A PaymentIntent of a one-off gift, confirmed with the donor's card; returns its id.

    Its payment_intent.succeeded event records the gift."""
    return charge(
        card,
        minor_units(amount, currency),
        currency,
        {"donation": reference},
        key=f"donation-{reference}-payment",
    )


def subscribe_monthly(
    *, reference: str, card: ConfirmedCard, amount: Decimal, currency: str
) -> str:
    """A monthly plan of the amount and the customer's subscription to it, charged to the
    card (the customer's default, ``payments.gateway.use_card``); returns its id.

    Stripe invoices the first month at once (or waits for 3-D Secure); each paid
    invoice's event records a gift.
    """
    local = f"donation-{reference}"
    plan = gateway.create_plan(
        local,
        product_name=PRODUCT_NAME,
        amount=minor_units(amount, currency),
        currency=currency,
        interval="month",
    )
    return gateway.subscribe(
        local,
        customer_id=card.customer_id,
        plan_id=plan,
        metadata={"donation": reference},
        payment_method_id=card.payment_method_id,
    )
