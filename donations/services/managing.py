"""The donor's management of a gift: cancelling a monthly gift on this site, Stripe's
customer portal, and the manage links mailed to an address."""

import logging

from django.db import transaction
from django.utils import timezone

from donations import mail, stripe_gateway
from donations.models import Donation
from donations.services.giving import PaymentServiceUnavailable
from outbox import queue
from payments import gateway

logger = logging.getLogger(__name__)
D = Donation.Status


class NotCancellable(Exception):
    """The gift is not a running monthly gift (the message says why); nothing changed."""


@transaction.atomic
def cancel_monthly(donation: Donation) -> Donation:
    """The donor stops a monthly gift on this site: Stripe is asked to cancel the
    subscription after the commit (through the outbox, retried until it answers), and
    its customer.subscription.deleted event marks the gift cancelled. Asking twice asks
    once. Raises NotCancellable for a gift that is not running."""
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    if donation.frequency != Donation.Frequency.MONTHLY:
        raise NotCancellable("A one-off gift has nothing to cancel.")
    if donation.status == D.CANCELLED:
        raise NotCancellable("This monthly gift is already cancelled.")
    if not donation.stripe_subscription_id:
        raise NotCancellable("Stripe has not started this monthly gift yet: nothing to cancel.")
    if donation.cancel_requested_at is None:
        donation.cancel_requested_at = timezone.now()
        donation.save(update_fields=["cancel_requested_at", "updated_at"])
        queue.enqueue(gateway.CANCEL_SUBSCRIPTION, subscription_id=donation.stripe_subscription_id)
    return donation


def portal_url(donation: Donation, return_url: str) -> str:
    if not donation.stripe_customer_id:
        raise PaymentServiceUnavailable("This gift has not reached Stripe yet.")
    try:
        return stripe_gateway.customer_portal_url(donation.stripe_customer_id, return_url)
    except stripe_gateway.StripeError as error:
        logger.warning("Stripe could not open a customer portal: %s", type(error).__name__)
        raise PaymentServiceUnavailable from error


def request_manage_links(email: str) -> None:
    """Mail the manage links of every gift made with this address (silently none)."""
    queue.enqueue(mail.MANAGE_LINKS, email=email)
