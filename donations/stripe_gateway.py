"""The Stripe calls of donations, through the one client of ``payments.gateway``.

Every create call carries an idempotency key derived from the donation's reference (and
what is asked), so a repeated request makes one object; the services store the ids the
calls return. The card is confirmed in the browser (Stripe.js) on a SetupIntent of the
donor's customer; the gift is then charged once, or subscribed monthly, here. The
donation's reference travels in the metadata of what Stripe makes (the customer, the
payment intent, the subscription and its invoice lines), so every webhook names its
donation. Stripe's customer portal is where a donor updates the card of a monthly gift.
"""

from decimal import Decimal

from payments.gateway import (
    UNREACHABLE,
    ConfirmedCard,
    StripeError,
    cancel_subscription,
    charge,
    client,
    idempotency_key,
    options,
)
from payments.money import minor_units

__all__ = ["UNREACHABLE", "StripeError", "cancel_subscription"]

PRODUCT_NAME = "Monthly gift to the MariaDB Foundation"
# The outbox kind of ``cancel_subscription`` (registered in DonationsConfig.ready()).
CANCEL_SUBSCRIPTION = "donations.cancel_subscription"


def create_customer(*, reference: str, email: str) -> str:
    """The donor's customer at Stripe for one gift; returns its id."""
    params = {"metadata": {"donation": reference}, **({"email": email} if email else {})}
    key = idempotency_key(f"donation-{reference}-customer", params)
    return client().v1.customers.create(params, options(key)).id


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a donor changes or cancels a gift and downloads invoices."""
    session = client().v1.billing_portal.sessions.create(
        {"customer": customer_id, "return_url": return_url}
    )
    return session.url


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
    stripe = client().v1
    metadata = {"donation": reference}
    key = f"donation-{reference}"
    product = stripe.products.create(
        {"name": PRODUCT_NAME}, options(idempotency_key(f"{key}-product", PRODUCT_NAME))
    )
    plan_params = {
        "product": product.id,
        "amount": minor_units(amount, currency),
        "currency": currency.lower(),
        "interval": "month",
    }
    plan = stripe.plans.create(plan_params, options(idempotency_key(f"{key}-plan", plan_params)))
    subscription_params = {
        "customer": card.customer_id,
        # The item's metadata is what an invoice line carries: the first invoice's
        # event names the donation even before this call has returned.
        "items": [{"plan": plan.id, "metadata": metadata}],
        "metadata": metadata,
        "payment_behavior": "allow_incomplete",
    }
    subscription = stripe.subscriptions.create(
        subscription_params,
        options(
            idempotency_key(f"{key}-subscription", subscription_params, card.payment_method_id)
        ),
    )
    return subscription.id
