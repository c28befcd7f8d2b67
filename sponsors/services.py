"""The sponsorship state machine and the workflows around it.

applied ──staff approve──▶ awaiting payment ──paid──▶ active ──30 days before the end──▶ expiring
   │  └─ paid first: approval goes straight to active                          │
   └──staff reject──▶ rejected                          renewal payment ◀──────┘──grace over──▶ lapsed
any open state ──sponsor or staff cancel──▶ cancelled
"""

import base64
import logging
import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from core import pagecache
from core.storage import private_storage
from outbox import queue
from payments.validation import Rejected
from sponsors import agreements, logos, mail, stripe_gateway, stripe_objects, stripe_tasks
from sponsors.models import (
    AgreementTemplate,
    Invitation,
    Organisation,
    Payment,
    Sponsorship,
    SponsorshipEvent,
    StatusError,
    Tier,
)

logger = logging.getLogger(__name__)
S = Sponsorship.Status
GRACE_DAYS = 14
REMINDER_DAYS = (30, 7)
SUPPORTERS_CACHE_KEY = "sponsors:supporters-page"


class SponsorshipError(Exception):
    """Base of the typed errors of this module."""


class InvalidTransition(SponsorshipError):
    """The status table (``Sponsorship.TRANSITIONS``) does not allow the change."""


class TierFull(SponsorshipError):
    pass


class PaymentFailed(SponsorshipError):
    pass


class StripeUnavailable(PaymentFailed):
    """Stripe could not be reached; nothing was charged and the invoice remains possible."""

    def __init__(self):
        super().__init__(
            "Our payment provider cannot be reached just now, so nothing was charged. "
            "Please try again in a few minutes, or pay by invoice instead."
        )


PAYABLE = {S.APPLIED, S.APPROVED, S.AWAITING_PAYMENT}


def invalidate_supporters_page():
    cache.delete(SUPPORTERS_CACHE_KEY)
    # Whole pages built between the commit and the line above hold the old list.
    pagecache.content_changed()


def _move(sponsorship: Sponsorship, to: str, actor=None, note: str = "", *, mail_it=True):
    """Change the status, record the event and (``mail_it``) mail the sponsor in the words
    the site uses: a cancelled application with nothing paid was *withdrawn*."""
    from_status = sponsorship.status
    try:
        sponsorship.move_to(to)
    except StatusError as error:
        raise InvalidTransition(str(error)) from error
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship, from_status=from_status, to_status=to, actor=actor, note=note
    )
    sponsorship.save()
    transaction.on_commit(invalidate_supporters_page)
    if mail_it and to == S.CANCELLED:
        what = sponsorship.status_label.lower()  # "withdrawn" or "cancelled"
        undo = {"undo": True} if note in UNDOABLE_NOTES else {}
        queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=what, **undo)
    elif mail_it:
        queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=to)


@transaction.atomic
def create_organisation(
    user, *, logo_upload=None, logo_height=logos.THUMBNAIL_HEIGHT, **fields
) -> Organisation:
    """Raises ValidationError (and creates nothing) when the logo is refused."""
    organisation = Organisation.objects.create(**fields)
    organisation.managers.add(user)
    if logo_upload:
        store_logo(organisation, logo_upload, logo_height)
    return organisation


@transaction.atomic
def store_logo(organisation: Organisation, upload, height=logos.THUMBNAIL_HEIGHT):
    """Validate and store a logo and its thumbnail. Raises ValidationError, storing nothing."""
    clean, thumbnail = logos.process_logo(upload, height)
    organisation.logo.save(clean.name, clean, save=False)
    if thumbnail:
        organisation.logo_thumbnail.save(thumbnail.name, thumbnail, save=False)
    else:
        organisation.logo_thumbnail = ""
    organisation.save()
    transaction.on_commit(invalidate_supporters_page)


@transaction.atomic
def invite(organisation: Organisation, email: str, invited_by) -> Invitation:
    if organisation.managers.filter(email__iexact=email).exists():
        raise SponsorshipError(f"{email} already manages {organisation.name}: nothing was sent.")
    invitation = Invitation.objects.create(
        organisation=organisation, email=email, invited_by=invited_by
    )
    queue.enqueue(mail.INVITATION, invitation_id=invitation.pk)
    return invitation


class AgreementChanged(SponsorshipError):
    pass


def current_agreement(tier: Tier) -> AgreementTemplate:
    """The tier's latest agreement version; the standard wording becomes version 1."""
    latest = tier.agreements.order_by("-version").first()
    if latest is None:
        latest, _ = AgreementTemplate.objects.get_or_create(
            tier=tier, version=1, defaults={"text": agreements.STANDARD_TEXT}
        )
    return latest


def save_agreement_version(agreement: AgreementTemplate, actor) -> AgreementTemplate:
    """Staff's edit becomes a new version; versions already offered never change."""
    with transaction.atomic():
        Tier.objects.select_for_update().get(pk=agreement.tier_id)
        last = agreement.tier.agreements.order_by("-version").first()
        agreement.pk = None
        agreement.version = (last.version if last else 0) + 1
        agreement.created_by = actor
        agreement.save()
    return agreement


@transaction.atomic
def apply(
    organisation: Organisation,
    tier: Tier,
    payment_method: str,
    actor,
    agreement_version: int | None = None,
) -> Sponsorship:
    """Record the application and, when a version is given, its acceptance of that
    agreement version (refused if the agreement changed since it was shown)."""
    tier = Tier.objects.select_for_update().get(pk=tier.pk)
    if tier.capacity is not None:
        taken = tier.sponsorships.open().count()
        if taken >= tier.capacity:
            raise TierFull(f"The {tier.name} tier is full this year.")
    terms = tier.terms()
    accepted = {}
    if agreement_version is not None:
        agreement = current_agreement(tier)
        if agreement.version != agreement_version:
            raise AgreementChanged(
                f"The agreement was updated while you read it (version {agreement_version} is "
                f"now version {agreement.version}). Nothing was recorded: please read the "
                "agreement below and accept it again."
            )
        accepted = {
            "agreement": agreement,
            "agreement_text": agreements.render(
                agreement.text,
                organisation=organisation.name,
                terms=terms,
                payment_method=payment_method,
            ),
            "accepted_by": actor,
            "accepted_at": timezone.now(),
        }
    sponsorship = Sponsorship.objects.create(
        organisation=organisation,
        tier=tier,
        terms=terms,
        payment_method=payment_method,
        **accepted,
    )
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship, to_status=S.APPLIED, actor=actor, note="application"
    )
    return sponsorship


def _stripe_failure(error, fallback: str) -> PaymentFailed:
    if isinstance(error, stripe_gateway.UNREACHABLE):
        logger.warning("Stripe unreachable: %s", type(error).__name__)
        return StripeUnavailable()
    return PaymentFailed(error.user_message or fallback)


def pay_by_card(sponsorship: Sponsorship, payment_method_id: str):
    """Charge or subscribe through Stripe. Success is recorded by the webhook, not here."""
    organisation = sponsorship.organisation
    terms = sponsorship.terms
    try:
        customer = stripe_objects.ensure_customer(organisation)
        stripe_gateway.attach_default_payment_method(customer, payment_method_id)
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            made = {
                "subscription_id": stripe_gateway.subscribe(
                    customer,
                    stripe_objects.ensure_plan(sponsorship.tier),
                    sponsorship.pk,
                    payment_method_id,
                )
            }
        else:
            made = {
                "payment_intent_id": stripe_gateway.charge_once(
                    customer,
                    payment_method_id,
                    Decimal(terms["annual_price"]),
                    terms["currency"],
                    sponsorship.pk,
                )
            }
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    stripe_objects.store_payment_ids(sponsorship, **made)


def pay_with_card_details(sponsorship: Sponsorship, card: dict):
    """Test mode only: the card fields go to the fake Stripe, which makes a payment method."""
    try:
        payment_method = stripe_gateway.card_payment_method(card)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    pay_by_card(sponsorship, payment_method)


def start_checkout(sponsorship: Sponsorship, *, success_url: str, cancel_url: str) -> str:
    """Live mode: the URL of Stripe's hosted payment page for this sponsorship.

    The card never reaches this site. Success is recorded by the webhooks
    (checkout.session.completed, then invoice.paid or payment_intent.succeeded).
    """
    terms = sponsorship.terms
    try:
        session = {
            "customer_id": stripe_objects.ensure_customer(sponsorship.organisation),
            "sponsorship_id": sponsorship.pk,
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            session["plan_id"] = stripe_objects.ensure_plan(sponsorship.tier)
        else:
            session.update(
                amount=Decimal(terms["annual_price"]),
                currency=terms["currency"],
                description=sponsorship.title,
            )
        return stripe_gateway.checkout_url(**session)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "Stripe could not start the payment.") from error


@transaction.atomic
def pay_by_invoice_instead(sponsorship: Sponsorship, actor) -> Sponsorship:
    """The sponsor gives up on the card (Stripe unreachable, or no card at hand).

    Before approval the invoice goes out when staff approve; after approval it goes out now.
    """
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.is_paid or sponsorship.status not in PAYABLE:
        raise InvalidTransition("This sponsorship needs no payment now.")
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        return sponsorship
    sponsorship.payment_method = Sponsorship.Payment.INVOICE
    changed, note = ["payment_method"], "payment by invoice instead of card"
    if sponsorship.agreement_id is not None:
        # The accepted text names the way to pay: the pay page showed the invoice wording,
        # and pressing its button accepts the agreement with it.
        sponsorship.agreement_text = agreements.render(
            sponsorship.agreement.text,
            organisation=sponsorship.organisation.name,
            terms=sponsorship.terms,
            payment_method=Sponsorship.Payment.INVOICE,
        )
        sponsorship.accepted_by, sponsorship.accepted_at = actor, timezone.now()
        changed += ["agreement_text", "accepted_by", "accepted_at"]
        note += "; agreement accepted with the invoice wording"
    sponsorship.save(update_fields=changed)
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        actor=actor,
        note=note,
    )
    if sponsorship.status == S.AWAITING_PAYMENT:
        queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def link_stripe_objects(sponsorship_id: int, *, subscription_id="", payment_intent_id="", note=""):
    """Remember the subscription or payment Stripe created for a sponsorship. Idempotent."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    changed = []
    if subscription_id and sponsorship.stripe_subscription_id != subscription_id:
        sponsorship.stripe_subscription_id = subscription_id
        changed.append("stripe_subscription_id")
    if payment_intent_id and sponsorship.stripe_payment_intent_id != payment_intent_id:
        sponsorship.stripe_payment_intent_id = payment_intent_id
        changed.append("stripe_payment_intent_id")
    if changed:
        sponsorship.save(update_fields=changed)
        if note:
            SponsorshipEvent.objects.create(
                sponsorship=sponsorship,
                from_status=sponsorship.status,
                to_status=sponsorship.status,
                note=note,
            )
    return sponsorship


@transaction.atomic
def approve(sponsorship: Sponsorship, actor):
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    # One mail for the approval: the state it leads to (active, or awaiting payment) says it.
    _move(sponsorship, S.APPROVED, actor, "approved by staff", mail_it=False)
    if sponsorship.is_paid:
        _activate(sponsorship, actor)
    else:
        _move(sponsorship, S.AWAITING_PAYMENT, actor)
        if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
            queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def reject(sponsorship: Sponsorship, actor, note=""):
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    _move(sponsorship, S.REJECTED, actor, note or "rejected by staff")
    return sponsorship


def _activate(sponsorship, actor=None):
    today = timezone.localdate()
    sponsorship.starts_on = sponsorship.starts_on or today
    sponsorship.ends_on = max(sponsorship.ends_on or today, today) + timedelta(days=365)
    _move(sponsorship, S.ACTIVE, actor, "payment received and approved")


@transaction.atomic
def record_payment(
    sponsorship_id: int, *, stripe_id: str, amount: Decimal, currency: str, paid_at, receipt_url=""
):
    """A payment arrived (from a verified webhook). Idempotent per Stripe object id.

    A payment in another currency than the sponsorship's terms is rejected: it would be
    counted as the sponsorship's income in a currency it was never priced in."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    expected = str(sponsorship.terms.get("currency", "")).upper()
    if currency.upper() != expected:
        raise Rejected(f"it pays in {currency.upper()}, the sponsorship is priced in {expected}")
    _payment, created = Payment.objects.get_or_create(
        stripe_id=stripe_id,
        defaults={
            "sponsorship": sponsorship,
            "amount": amount,
            "currency": currency.upper(),
            "paid_at": paid_at,
            "receipt_url": receipt_url,
        },
    )
    if not created:
        return sponsorship
    first = sponsorship.paid_at is None
    sponsorship.paid_at = max(filter(None, [sponsorship.paid_at, paid_at]))
    sponsorship.save(update_fields=["paid_at"])
    if sponsorship.status == S.AWAITING_PAYMENT:
        _activate(sponsorship)
    elif sponsorship.status in (S.EXPIRING, S.LAPSED) and not first:
        sponsorship.ends_on = max(sponsorship.ends_on or timezone.localdate(), timezone.localdate())
        _activate(sponsorship)
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
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=sponsorship.status,
            to_status=sponsorship.status,
            note=f"payment {stripe_id} received",
        )
    return sponsorship


@transaction.atomic
def cancel(sponsorship: Sponsorship, actor, note="cancelled", stripe_not_before=None):
    """Cancel; Stripe is asked to end the subscription after the commit, or from
    ``stripe_not_before`` on (an undo window: ``undo_cancel`` withdraws the request)."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.status == S.CANCELLED:
        return sponsorship
    _move(sponsorship, S.CANCELLED, actor, note)
    if sponsorship.stripe_subscription_id:
        queue.enqueue(
            stripe_tasks.CANCEL_SUBSCRIPTION,
            not_before=stripe_not_before,
            subscription_id=sponsorship.stripe_subscription_id,
        )
    return sponsorship


WITHDRAWN_NOTE = "application withdrawn by the sponsor"
CANCELLED_NOTE = "cancelled by the sponsor"
UNDOABLE_NOTES = {WITHDRAWN_NOTE, CANCELLED_NOTE}


def is_withdrawal(sponsorship: Sponsorship) -> bool:
    """Cancelling now only takes back an application: nothing paid, nothing at Stripe."""
    return sponsorship.status in PAYABLE and sponsorship.nothing_paid


@transaction.atomic
def cancel_by_sponsor(sponsorship: Sponsorship, actor) -> bool:
    """Cancel (or withdraw) on the sponsor's confirmed request. Either can be undone for
    SPONSORSHIP_UNDO_MINUTES: Stripe is asked to end a subscription only once that window
    has passed. Answers whether it was a withdrawal (nothing paid)."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    withdrawal = is_withdrawal(sponsorship)
    if sponsorship.status == S.CANCELLED:
        raise InvalidTransition("This sponsorship is already cancelled.")
    window_ends = timezone.now() + timedelta(minutes=settings.SPONSORSHIP_UNDO_MINUTES)
    cancel(sponsorship, actor, WITHDRAWN_NOTE if withdrawal else CANCELLED_NOTE, window_ends)
    return withdrawal


def undo_deadline(sponsorship: Sponsorship):
    """When the sponsor's cancellation or withdrawal stops being reversible, or None."""
    if sponsorship.status != S.CANCELLED:
        return None
    last = sponsorship.events.order_by("-at", "-id").first()
    if last is None or last.note not in UNDOABLE_NOTES:
        return None
    deadline = last.at + timedelta(minutes=settings.SPONSORSHIP_UNDO_MINUTES)
    return deadline if timezone.now() < deadline else None


@transaction.atomic
def undo_cancel(sponsorship: Sponsorship, actor) -> Sponsorship:
    """Put back a sponsorship cancelled (or an application withdrawn) a moment ago: the
    request to Stripe that was waiting for the window to pass is withdrawn."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.status != S.CANCELLED:
        raise InvalidTransition("This sponsorship is not cancelled: there is nothing to undo.")
    if undo_deadline(sponsorship) is None:
        raise InvalidTransition(
            "This can no longer be undone: please apply again from the programmes page."
        )
    tier = Tier.objects.select_for_update().get(pk=sponsorship.tier_id)
    if tier.capacity is not None and tier.sponsorships.open().count() >= tier.capacity:
        raise TierFull(f"The {tier.name} tier filled up in the meantime.")
    if sponsorship.stripe_subscription_id and not queue.withdraw(
        stripe_tasks.CANCEL_SUBSCRIPTION, subscription_id=sponsorship.stripe_subscription_id
    ):
        raise InvalidTransition(
            "Stripe has already ended the subscription: please apply again from the "
            "programmes page."
        )
    last = sponsorship.events.order_by("-at", "-id").first()
    previous = last.from_status
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=S.CANCELLED,
        to_status=previous,
        actor=actor,
        note=(
            "withdrawal undone by the sponsor"
            if last.note == WITHDRAWN_NOTE
            else "cancellation undone by the sponsor"
        ),
    )
    try:
        sponsorship.reopen(previous)
    except StatusError as error:
        raise InvalidTransition(str(error)) from error
    sponsorship.save()
    transaction.on_commit(invalidate_supporters_page)
    undone = "withdrawal_undone" if sponsorship.nothing_paid else "cancellation_undone"
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=undone)
    return sponsorship


@transaction.atomic
def remove_logo(organisation: Organisation):
    """The public pages show the organisation's name as a wordmark instead."""
    stored = [(f.storage, f.name) for f in (organisation.logo, organisation.logo_thumbnail) if f]
    organisation.logo = ""
    organisation.logo_thumbnail = ""
    organisation.save(update_fields=["logo", "logo_thumbnail"])
    transaction.on_commit(invalidate_supporters_page)
    for storage, name in stored:
        transaction.on_commit(lambda storage=storage, name=name: storage.delete(name))


@transaction.atomic
def subscription_ended(subscription_id: str):
    """Stripe deleted the subscription (cancelled there, or unpaid): lapse at the end of the paid period."""
    for sponsorship in Sponsorship.objects.select_for_update().filter(
        stripe_subscription_id=subscription_id
    ):
        if (
            sponsorship.status in (S.ACTIVE, S.EXPIRING)
            and sponsorship.ends_on
            and sponsorship.ends_on < timezone.localdate()
        ):
            _move(sponsorship, S.LAPSED, note="subscription ended")
        elif sponsorship.status in (S.APPLIED, S.APPROVED, S.AWAITING_PAYMENT):
            _move(sponsorship, S.CANCELLED, note="subscription ended before payment")


def run_renewals(today: date | None = None) -> dict:
    """Daily: reminders 30 and 7 days before the end, expiring state, lapse after the grace period."""
    today = today or timezone.localdate()
    counts = {"reminders": 0, "expiring": 0, "lapsed": 0}
    open_ = Sponsorship.objects.filter(status__in=[S.ACTIVE, S.EXPIRING], ends_on__isnull=False)
    for sponsorship in open_.select_related("organisation"):
        days_left = (sponsorship.ends_on - today).days
        with transaction.atomic():
            if days_left < -GRACE_DAYS:
                _move(sponsorship, S.LAPSED, note=f"not renewed within {GRACE_DAYS} days")
                counts["lapsed"] += 1
                continue
            if sponsorship.status == S.ACTIVE and days_left <= 30:
                _move(sponsorship, S.EXPIRING, note="renewal due")
                counts["expiring"] += 1
            for days in REMINDER_DAYS:
                key = f"{sponsorship.ends_on.isoformat()}:{days}"
                if days_left <= days and key not in sponsorship.reminders_sent:
                    sponsorship.reminders_sent = [*sponsorship.reminders_sent, key]
                    sponsorship.save(update_fields=["reminders_sent"])
                    queue.enqueue(mail.RENEWAL_REMINDER, sponsorship_id=sponsorship.pk, days=days)
                    counts["reminders"] += 1
    return counts


@transaction.atomic
def propose_profile_change(organisation: Organisation, **changes):
    organisation.pending_changes = {**organisation.pending_changes, **changes}
    organisation.save(update_fields=["pending_changes"])


@transaction.atomic
def approve_profile_change(organisation: Organisation):
    for field, value in organisation.pending_changes.items():
        if field in ("name", "website", "description"):
            setattr(organisation, field, value)
    organisation.pending_changes = {}
    organisation.save()
    transaction.on_commit(invalidate_supporters_page)


def payment_failed(sponsorship_id: int):
    """Stripe reported a failed charge: tell the sponsor after the commit."""
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship_id, what="payment_failed")


@transaction.atomic
def accept_invitation(invitation, user):
    if invitation.accepted_at or invitation.email.lower() != (user.email or "").lower():
        raise SponsorshipError("This invitation is for another address, or was already used.")
    invitation.organisation.managers.add(user)
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])


# A refused application keeps the logo chosen with it: the validated file waits in the
# private folder, named by a signed token in the re-rendered form, until the form is
# accepted (then it is the organisation's logo) or a day has passed.
HELD_LOGOS = "held-logos"
HELD_LOGO_SALT = "sponsors.held-logo"
HELD_LOGO_SECONDS = 24 * 3600


@dataclass
class HeldLogo:
    token: str
    name: str  # the file's name as the sponsor chose it (cleaned)
    preview: str  # a data: URL for the form's <img>


def _prune_held_logos(now):
    try:
        _dirs, names = private_storage.listdir(HELD_LOGOS)
    except FileNotFoundError:
        return
    for name in names:
        path = f"{HELD_LOGOS}/{name}"
        if (now - private_storage.get_modified_time(path)).total_seconds() > HELD_LOGO_SECONDS:
            private_storage.delete(path)


def hold_logo(user, upload) -> HeldLogo:
    """Validate ``upload`` (logos.process_logo, as when it is stored) and keep it for the
    re-rendered form. Raises ValidationError, keeping nothing."""
    clean, _thumbnail = logos.process_logo(upload)
    _prune_held_logos(timezone.now())
    stored = private_storage.save(f"{HELD_LOGOS}/{secrets.token_hex(12)}-{clean.name}", clean)
    token = signing.dumps({"user": user.pk, "path": stored}, salt=HELD_LOGO_SALT)
    return held_logo(user, token)


def held_logo(user, token: str) -> HeldLogo | None:
    """The logo kept for ``user`` under ``token``, or None (tampered, someone else's,
    expired or already used)."""
    try:
        kept = signing.loads(token, salt=HELD_LOGO_SALT, max_age=HELD_LOGO_SECONDS)
    except signing.BadSignature:
        return None
    path = kept.get("path", "")
    if kept.get("user") != user.pk or not path.startswith(HELD_LOGOS + "/"):
        return None
    if not private_storage.exists(path):
        return None
    with private_storage.open(path, "rb") as handle:
        data = handle.read()
    name = path.rpartition("/")[2].partition("-")[2]
    kind = "svg+xml" if name.endswith(".svg") else name.rpartition(".")[2].replace("jpg", "jpeg")
    preview = f"data:image/{kind};base64,{base64.b64encode(data).decode()}"
    return HeldLogo(token=token, name=name, preview=preview)


def use_held_logo(held: HeldLogo) -> ContentFile:
    """The kept file as an upload for create_organisation; it is deleted after the commit."""
    path = signing.loads(held.token, salt=HELD_LOGO_SALT)["path"]
    with private_storage.open(path, "rb") as handle:
        upload = ContentFile(handle.read(), name=held.name)
    transaction.on_commit(lambda: private_storage.delete(path))
    return upload
