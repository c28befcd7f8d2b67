"""Stripe calls made after a commit (approval, cancellation, admin actions).

Services record them in the outbox (``payments.outbox``) in the transaction that
causes them; the outbox delivers them after the commit and retries them, with a
growing delay, until Stripe answers. Each call is safe to repeat: it carries the
outbox item's idempotency key. Registered in ``SponsorsConfig.ready()``.
"""

from decimal import Decimal

from sponsors import stripe_gateway
from sponsors.models import Sponsorship, SponsorshipEvent

SEND_INVOICE = "sponsors.send_invoice"
CANCEL_SUBSCRIPTION = "sponsors.cancel_subscription"


def send_invoice(sponsorship_id: int, idempotency_key: str = ""):
    """Stripe emails an invoice to the billing contact; its invoice.paid webhook activates."""
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    terms = sponsorship.terms
    customer = stripe_gateway.ensure_customer(sponsorship.organisation)
    invoice_id = stripe_gateway.send_invoice(
        customer,
        Decimal(terms["annual_price"]),
        terms["currency"],
        sponsorship.pk,
        sponsorship.title,
        idempotency_key,
    )
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        note=f"invoice {invoice_id} sent",
    )


def cancel_subscription(subscription_id: str, idempotency_key: str = ""):
    stripe_gateway.cancel_subscription(subscription_id, idempotency_key)
