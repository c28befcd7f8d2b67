"""The Stripe calls of donations: Checkout and the customer portal, through the one
client of ``payments.gateway``."""

from decimal import Decimal

from payments.gateway import StripeError, client
from payments.money import minor_units

__all__ = ["StripeError"]


def checkout_url(
    *,
    reference: str,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    description: str,
    success_url: str,
    cancel_url: str,
) -> tuple[str, str]:
    """A Stripe Checkout session for one gift; returns (session id, URL to send the donor to)."""
    metadata = {"donation": reference}
    price = {
        "currency": currency.lower(),
        "unit_amount": minor_units(amount, currency),
        "product_data": {"name": description},
    }
    params = {
        "client_reference_id": reference,
        "customer_email": email,
        "metadata": metadata,
        "success_url": success_url,
        "cancel_url": cancel_url,
        "line_items": [{"quantity": 1, "price_data": price}],
    }
    if monthly:
        price["recurring"] = {"interval": "month"}
        params.update(mode="subscription", subscription_data={"metadata": metadata})
    else:
        params.update(
            mode="payment",
            customer_creation="always",
            invoice_creation={"enabled": True},
            payment_intent_data={"metadata": metadata},
        )
    session = client().v1.checkout.sessions.create(params)
    return session.id, session.url


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a donor changes or cancels a gift and downloads invoices."""
    session = client().v1.billing_portal.sessions.create(
        {"customer": customer_id, "return_url": return_url}
    )
    return session.url
