"""Every call to Stripe goes through here (one seam for tests and for the fake server)."""

from decimal import Decimal

import stripe
from django.conf import settings


def _configure():
    stripe.api_key = settings.STRIPE_SECRET_KEY
    if settings.STRIPE_API_BASE:
        stripe.api_base = settings.STRIPE_API_BASE


def minor_units(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def ensure_customer(organisation) -> str:
    _configure()
    if not organisation.stripe_customer_id:
        customer = stripe.Customer.create(
            email=organisation.billing_email, name=organisation.billing_name,
            metadata={"organisation": str(organisation.pk)},
        )  # fmt: skip
        organisation.stripe_customer_id = customer.id
        organisation.save(update_fields=["stripe_customer_id"])
    return organisation.stripe_customer_id


def card_payment_method(card: dict) -> str:
    """Test mode only: make a PaymentMethod from card fields (the live site uses Checkout)."""
    _configure()
    return stripe.PaymentMethod.create(type="card", card=card).id


def attach_default_payment_method(customer_id: str, payment_method_id: str):
    _configure()
    stripe.PaymentMethod.attach(payment_method_id, customer=customer_id)
    stripe.Customer.modify(
        customer_id, invoice_settings={"default_payment_method": payment_method_id}
    )


def ensure_plan(tier) -> str:
    _configure()
    if not tier.stripe_plan_id:
        product = stripe.Product.create(name=f"{tier.name} {tier.programme.name} {tier.year}")
        plan = stripe.Plan.create(
            product=product.id,
            amount=minor_units(tier.annual_price),
            currency=tier.currency.lower(),
            interval="year",
        )
        tier.stripe_plan_id = plan.id
        tier.save(update_fields=["stripe_plan_id"])
    return tier.stripe_plan_id


def subscribe(customer_id: str, plan_id: str, sponsorship_id: int) -> str:
    _configure()
    subscription = stripe.Subscription.create(
        customer=customer_id,
        items=[{"plan": plan_id}],
        metadata={"sponsorship": str(sponsorship_id)},
    )
    return subscription.id


def charge_once(
    customer_id: str, payment_method_id: str, amount: Decimal, currency: str, sponsorship_id: int
) -> str:
    _configure()
    intent = stripe.PaymentIntent.create(
        amount=minor_units(amount), currency=currency.lower(), customer=customer_id,
        payment_method=payment_method_id, confirm=True, metadata={"sponsorship": str(sponsorship_id)},
    )  # fmt: skip
    return intent.id


def checkout_url(
    *,
    customer_id: str,
    sponsorship_id: int,
    success_url: str,
    cancel_url: str,
    plan_id: str = "",
    amount: Decimal | None = None,
    currency: str = "",
    description: str = "",
) -> str:
    """Live mode: a Stripe Checkout session, Stripe's hosted page where the card is typed.

    With ``plan_id`` it starts the annual subscription, otherwise a one-off payment of
    ``amount``. The sponsorship id travels in the metadata of the session and of the
    subscription or payment it creates, so every later webhook names its sponsorship.
    """
    _configure()
    metadata = {"sponsorship": str(sponsorship_id)}
    common = {"customer": customer_id, "client_reference_id": str(sponsorship_id), "metadata": metadata,
              "success_url": success_url, "cancel_url": cancel_url}  # fmt: skip
    if plan_id:
        session = stripe.checkout.Session.create(
            mode="subscription", line_items=[{"price": plan_id, "quantity": 1}],
            subscription_data={"metadata": metadata}, **common,
        )  # fmt: skip
    else:
        session = stripe.checkout.Session.create(
            mode="payment",
            line_items=[{"quantity": 1, "price_data": {
                "currency": currency.lower(), "unit_amount": minor_units(amount),
                "product_data": {"name": description}}}],
            payment_intent_data={"metadata": metadata}, **common,
        )  # fmt: skip
    return session.url


def send_invoice(
    customer_id: str, amount: Decimal, currency: str, sponsorship_id: int, description: str
) -> str:
    """An invoice Stripe emails to the customer, due in 30 days."""
    _configure()
    metadata = {"sponsorship": str(sponsorship_id)}
    stripe.InvoiceItem.create(customer=customer_id, amount=minor_units(amount), currency=currency.lower(),
                              description=description, metadata=metadata)  # fmt: skip
    invoice = stripe.Invoice.create(customer=customer_id, collection_method="send_invoice", days_until_due=30,
                                    metadata=metadata, pending_invoice_items_behavior="include")  # fmt: skip
    stripe.Invoice.finalize_invoice(invoice.id)
    stripe.Invoice.send_invoice(invoice.id)
    return invoice.id


def cancel_subscription(subscription_id: str):
    _configure()
    stripe.Subscription.delete(subscription_id)


def verify_webhook(payload: bytes, signature: str):
    """Raises stripe.SignatureVerificationError or ValueError when the event is not genuine."""
    return stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
