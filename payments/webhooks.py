"""The Stripe webhook: verified, checked, recorded once, then handed to the apps.

Every handler decides from the object it carries, not from the order of arrival, and
every effect is idempotent, so replays and out-of-order deliveries leave the same state.
A body that is not a usable Stripe event is refused (400, with the reason) before
anything is stored; a usable event that no app claims is acknowledged as ignored, and
one that breaks the site's rules (a currency it does not sell, a payment of nothing, a
refund above its charge: ``validation.Rejected``, from the checks or a handler) is
recorded as rejected with the reason and acknowledged, so Stripe stops resending either.
"""

import dataclasses
import json
import logging
from types import MappingProxyType

from django.db import IntegrityError, transaction

from payments import dispatch, gateway, validation
from payments.events import StripeEventData
from payments.models import StripeEvent

logger = logging.getLogger(__name__)


class Refused(Exception):
    """Not a usable Stripe event: answered with 400 and this message."""


def receive(payload: bytes, signature: str) -> str:
    """Verify, check and process one delivery. Raises Refused; otherwise see ``process``."""
    try:
        text = gateway.verify_webhook(payload, signature)
    except (ValueError, gateway.SignatureVerificationError) as error:
        raise Refused("invalid payload or signature") from error
    try:
        event = json.loads(text)
    except RecursionError as error:
        raise Refused(f"the body is nested deeper than {validation.MAX_DEPTH} levels") from error
    except ValueError as error:
        raise Refused("the body is not JSON") from error
    return process(event)


def process(event: object) -> str:
    """Returns "processed", "duplicate", "ignored" or "rejected"; raises Refused for an
    unusable event."""
    try:
        checked = validation.check_event(event)
    except validation.Invalid as reason:
        raise Refused(str(reason)) from reason
    if StripeEvent.objects.filter(event_id=checked.id).exists():
        return "duplicate"
    checked = with_subscription_metadata(checked)  # a Stripe call, before any transaction
    try:
        with transaction.atomic():
            record = StripeEvent.objects.create(event_id=checked.id, type=checked.type)
            try:
                with transaction.atomic():  # a rejection undoes every handler's changes
                    validation.check_acceptable(checked)
                    record.outcome, record.reason = _dispatch(checked)
            except validation.Rejected as reason:
                record.outcome, record.reason = REJECTED, str(reason)[:REASON_LENGTH]
                logger.warning(
                    "Stripe event %s (%s) rejected: %s", checked.id, checked.type, reason
                )
            record.save(update_fields=["outcome", "reason"])
    except IntegrityError:
        return "duplicate"
    return record.outcome


def with_subscription_metadata(event: StripeEventData) -> StripeEventData:
    """An invoice of a subscription that carries none of its metadata (older Stripe API
    versions; localstripe's never do) may arrive before the site has stored the
    subscription's id: when no app knows the subscription, its own metadata, asked of
    Stripe here, outside the transaction, names what the invoice pays for. Unreachable or
    odd: left as it was."""
    if not (
        event.type.startswith("invoice.")
        and event.subscription
        and not event.metadata
        and not event.subscription_metadata
        and not dispatch.subscription_known(event.subscription)
    ):
        return event
    try:
        metadata = gateway.subscription_metadata(event.subscription)
        validation.check_metadata("the subscription's metadata", metadata)
    except (gateway.StripeError, validation.Invalid) as error:
        logger.warning("Subscription metadata for %s not read: %s", event.id, type(error).__name__)
        return event
    return dataclasses.replace(event, subscription_metadata=MappingProxyType(dict(metadata)))


REJECTED = "rejected"
REASON_LENGTH = StripeEvent._meta.get_field("reason").max_length


def _dispatch(event: StripeEventData) -> tuple[str, str]:
    """Hand the event to every handler of its type: "processed" when one of them used it.

    A handler may raise ``validation.Rejected``: the event is rejected (``process`` undoes
    what every handler did). Returns the outcome and the handlers' reasons."""
    handlers = dispatch.handlers_for(event.type)
    reasons = []
    for handler in handlers:
        try:
            with transaction.atomic():
                handler(event)
        except dispatch.Ignored as reason:
            reasons.append(str(reason))
    if len(reasons) < len(handlers):
        return "processed", ""
    if handlers:  # a type we handle, about nothing we know: worth a look
        logger.warning("Stripe event %s (%s) ignored: %s", event.id, event.type, "; ".join(reasons))
    return "ignored", "; ".join(reasons)[:REASON_LENGTH]
