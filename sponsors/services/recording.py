"""Recording what Stripe reports of a sponsorship: its payments (kept by the payments app,
``payments.recording``, which also records their refunds and disputes), the Stripe
objects a payment made, and failed payments. Starting a payment is ``billing``'s.

A payment counts as the sponsorship's money whatever its amount, but only a payment of the
term's price (in the term's currency) activates or extends the sponsorship: a signed event
for one cent is one cent, not a year."""

from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from outbox import queue
from payments import recording
from payments.events import Rejected
from payments.money import from_minor_units, minor_units
from sponsors import mail
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services.lifecycle import activate
from sponsors.services.transitions import S


def term_price_minor(sponsorship: Sponsorship) -> int:
    """The price of one term, in the currency's minor unit."""
    terms = sponsorship.terms
    return minor_units(Decimal(str(terms["annual_price"])), str(terms["currency"]))


def _note(sponsorship: Sponsorship, note: str):
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        note=note,
    )


@transaction.atomic
def record_payment(
    sponsorship_id: int,
    *,
    stripe_id: str,
    amount_minor: int,
    currency: str,
    paid_at,
    receipt_url="",
    payment_intent_id="",
    charge_id="",
):
    """A payment arrived (from a verified webhook). Idempotent per Stripe object id.

    A payment in another currency than the sponsorship's terms is rejected: it would be
    counted as the sponsorship's income in a currency it was never priced in."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    expected = str(sponsorship.terms.get("currency", "")).upper()
    if currency.upper() != expected:
        raise Rejected(f"it pays in {currency.upper()}, the sponsorship is priced in {expected}")
    _payment, created = recording.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount_minor=amount_minor,
        currency=currency,
        paid_at=paid_at,
        receipt_url=receipt_url,
        payment_intent_id=payment_intent_id,
        charge_id=charge_id,
    )
    if not created:
        return sponsorship
    price = term_price_minor(sponsorship)
    if amount_minor < price:
        paid, due = from_minor_units(amount_minor, expected), from_minor_units(price, expected)
        _note(
            sponsorship,
            f"payment {stripe_id} of {paid} {expected} received; "
            f"not the term's price ({due} {expected}), so the term is unchanged",
        )
        return sponsorship
    first = sponsorship.paid_at is None
    sponsorship.paid_at = max(filter(None, [sponsorship.paid_at, paid_at]))
    sponsorship.save(update_fields=["paid_at"])
    if sponsorship.status == S.AWAITING_PAYMENT:
        activate(sponsorship)
    elif sponsorship.status in (S.EXPIRING, S.LAPSED) and not first:
        sponsorship.ends_on = max(sponsorship.ends_on or timezone.localdate(), timezone.localdate())
        activate(sponsorship)
    elif sponsorship.status == S.ACTIVE and not first:
        sponsorship.ends_on = (sponsorship.ends_on or timezone.localdate()) + timedelta(days=365)
        sponsorship.save(update_fields=["ends_on"])
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=S.ACTIVE,
            to_status=S.ACTIVE,
            note=f"renewed by payment {stripe_id}",
        )
    else:
        _note(sponsorship, f"payment {stripe_id} received")
    return sponsorship


def payment_failed(sponsorship_id: int):
    """Stripe reported a failed charge: tell the sponsor after the commit."""
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship_id, what="payment_failed")
