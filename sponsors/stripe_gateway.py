"""The sponsorships' Stripe calls, all through the one client of ``payments.gateway``
(one seam for tests and for the fake server).

Calls that make an object return its Stripe id and store nothing: the caller stores it
under a row lock (``sponsors.stripe_objects``). Each carries an idempotency key derived
from the local object's id, so a repeated request makes one object."""

from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from django.conf import settings

from payments.gateway import (
    UNREACHABLE,
    StripeError,
    cancel_subscription,
    client,
    idempotency_key,
    options,
)
from payments.money import minor_units

__all__ = ["UNREACHABLE", "StripeError", "cancel_subscription"]


def create_customer(organisation) -> str:
    """A Stripe customer for the organisation; returns its id (the caller stores it)."""
    params = {
        "email": organisation.billing_email,
        "name": organisation.billing_name,
        "metadata": {"organisation": str(organisation.pk)},
    }
    key = idempotency_key(f"organisation-{organisation.pk}-customer", params)
    return client().v1.customers.create(params, options(key)).id


def create_plan(tier) -> str:
    """A yearly Stripe plan (and its product) at the tier's price; returns the plan's id
    (the caller stores it)."""
    stripe = client().v1
    product_params = {"name": f"{tier.name} {tier.programme.name} {tier.year}"}
    product = stripe.products.create(
        product_params, options(idempotency_key(f"tier-{tier.pk}-product", product_params))
    )
    plan_params = {
        "product": product.id,
        "amount": minor_units(tier.annual_price, tier.currency),
        "currency": tier.currency.lower(),
        "interval": "year",
    }
    plan = stripe.plans.create(
        plan_params, options(idempotency_key(f"tier-{tier.pk}-plan", plan_params))
    )
    return plan.id


def subscribe(customer_id: str, plan_id: str, sponsorship_id: int, payment_method_id: str) -> str:
    """A yearly subscription charged to the customer's default card (``payments.gateway.
    use_card``); its first invoice is paid at once, or waits for 3-D Secure
    (``allow_incomplete``). Returns its id."""
    params = {
        "customer": customer_id,
        "items": [{"plan": plan_id}],
        "metadata": {"sponsorship": str(sponsorship_id)},
        "payment_behavior": "allow_incomplete",
    }
    key = idempotency_key(f"sponsorship-{sponsorship_id}-subscription", params, payment_method_id)
    return client().v1.subscriptions.create(params, options(key)).id


@dataclass(frozen=True)
class IssuedInvoice:
    stripe_id: str
    number: str
    due_on: date | None
    url: str  # Stripe's hosted page where it is paid ("" when Stripe gives none)


def send_invoice(
    customer_id: str,
    amount: Decimal,
    currency: str,
    sponsorship_id: int,
    description: str,
    idempotency_key: str = "",
) -> IssuedInvoice:
    """An invoice Stripe emails to the customer, due in INVOICE_DUE_DAYS days, to be paid by transfer or
    on Stripe's hosted invoice page.

    Idempotency keys (the outbox item's) make a retry after a lost answer reuse what
    Stripe already made.
    """
    stripe = client().v1
    metadata = {"sponsorship": str(sponsorship_id)}
    key = idempotency_key or f"sponsorship-{sponsorship_id}-invoice"
    stripe.invoice_items.create(
        {
            "customer": customer_id,
            "amount": minor_units(amount, currency),
            "currency": currency.lower(),
            "description": description,
            "metadata": metadata,
        },
        options(f"{key}-item"),
    )
    invoice = stripe.invoices.create(
        {
            "customer": customer_id,
            "collection_method": "send_invoice",
            "days_until_due": settings.INVOICE_DUE_DAYS,
            "metadata": metadata,
            "pending_invoice_items_behavior": "include",
        },
        options(key),
    )
    if invoice.status == "draft":
        stripe.invoices.finalize_invoice(invoice.id, options=options(f"{key}-finalize"))
    sent = stripe.invoices.send_invoice(invoice.id, options=options(f"{key}-send")).to_dict()
    due = sent.get("due_date")
    return IssuedInvoice(
        stripe_id=invoice.id,
        number=sent.get("number") or "",
        due_on=datetime.fromtimestamp(due, tz=UTC).date() if isinstance(due, int) else None,
        url=sent.get("hosted_invoice_url") or "",
    )


def mark_invoice_paid_out_of_band(invoice_id: str, idempotency_key: str = ""):
    """A bank transfer paid it: Stripe stops asking the customer for the money."""
    client().v1.invoices.pay(
        invoice_id,
        {"paid_out_of_band": True},
        options(idempotency_key or f"{invoice_id}-paid-out-of-band"),
    )
