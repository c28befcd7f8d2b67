"""What a sponsorship asks of Stripe, in the sponsors' terms (an organisation, a tier, a
sponsorship), made through ``payments.gateway``, the one place that calls Stripe.

Calls that make an object return its Stripe id and store nothing: the caller stores it
under a row lock (``sponsors.stripe_objects``). Each carries an idempotency key derived
from the local object's id, so a repeated request makes one object."""

from decimal import Decimal

from payments import gateway
from payments.gateway import UNREACHABLE, IssuedInvoice, StripeError
from payments.money import minor_units

__all__ = ["UNREACHABLE", "IssuedInvoice", "StripeError"]


def create_customer(organisation) -> str:
    """A Stripe customer for the organisation; returns its id (the caller stores it)."""
    return gateway.create_customer(
        f"organisation-{organisation.pk}-customer",
        email=organisation.billing_email,
        name=organisation.billing_name,
        metadata={"organisation": str(organisation.pk)},
    )


def create_plan(tier) -> str:
    """A yearly Stripe plan (and its product) at the tier's price; returns the plan's id
    (the caller stores it)."""
    return gateway.create_plan(
        f"tier-{tier.pk}",
        product_name=f"{tier.name} {tier.programme.name} {tier.year}",
        amount=minor_units(tier.annual_price, tier.currency),
        currency=tier.currency,
        interval="year",
    )


def subscribe(customer_id: str, plan_id: str, sponsorship_id: int, payment_method_id: str) -> str:
    """A yearly subscription charged to the customer's default card; returns its id."""
    return gateway.subscribe(
        f"sponsorship-{sponsorship_id}",
        customer_id=customer_id,
        plan_id=plan_id,
        metadata={"sponsorship": str(sponsorship_id)},
        payment_method_id=payment_method_id,
    )


def send_invoice(
    customer_id: str,
    amount: Decimal,
    currency: str,
    sponsorship_id: int,
    description: str,
    idempotency_key: str = "",
) -> IssuedInvoice:
    """An invoice of the sponsorship that Stripe emails to the customer. Idempotency keys
    (the outbox item's) make a retry after a lost answer reuse what Stripe already made."""
    return gateway.send_invoice(
        idempotency_key or f"sponsorship-{sponsorship_id}-invoice",
        customer_id=customer_id,
        amount=minor_units(amount, currency),
        currency=currency,
        description=description,
        metadata={"sponsorship": str(sponsorship_id)},
    )


def mark_invoice_paid_out_of_band(invoice_id: str, idempotency_key: str = ""):
    gateway.mark_invoice_paid_out_of_band(invoice_id, idempotency_key)
