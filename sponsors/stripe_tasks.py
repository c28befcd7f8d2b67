"""Stripe calls made after a commit (approval, cancellation, admin actions).

They run as Celery tasks so that an unreachable Stripe delays the call instead of
failing the request; they are retried with a growing delay while Stripe cannot be
reached. Each call is safe to repeat.
"""

from decimal import Decimal

from celery import shared_task

from sponsors import stripe_gateway
from sponsors.models import Sponsorship, SponsorshipEvent

STRIPE_TASK_OPTIONS = {
    "autoretry_for": stripe_gateway.UNREACHABLE,
    "retry_backoff": 30,
    "retry_backoff_max": 3600,
    "max_retries": 10,
}


@shared_task(**STRIPE_TASK_OPTIONS)
def send_invoice(sponsorship_id: int):
    """Stripe emails an invoice to the billing contact; its invoice.paid webhook activates."""
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    terms = sponsorship.terms
    customer = stripe_gateway.ensure_customer(sponsorship.organisation)
    invoice_id = stripe_gateway.send_invoice(
        customer,
        Decimal(terms["annual_price"]),
        terms["currency"],
        sponsorship.pk,
        f"{terms['tier']} {terms['programme']} {terms['year']}",
    )
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        note=f"invoice {invoice_id} sent",
    )


@shared_task(**STRIPE_TASK_OPTIONS)
def cancel_subscription(subscription_id: str):
    stripe_gateway.cancel_subscription(subscription_id)
