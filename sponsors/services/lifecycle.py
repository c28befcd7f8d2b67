"""A sponsorship's life after the application: approval or rejection, activation,
cancellation and its undo window, the end of a Stripe subscription, and renewals."""

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import transitions
from core.transitions import TransitionRefused
from outbox import queue
from payments import gateway
from sponsors import mail, stripe_tasks
from sponsors.models import Sponsorship, SponsorshipEvent, Tier
from sponsors.services.transitions import PAYABLE, Actor, S, TierFull, move
from sponsors.terms import Term, long_date

GRACE_DAYS = 14
REMINDER_DAYS = (30, 7)


@transaction.atomic
def approve(sponsorship: Sponsorship, actor: Actor) -> Sponsorship:
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    # One mail for the approval: the state it leads to (active, or awaiting payment) says it.
    move(sponsorship, "approve", actor, "approved by staff", mail_it=False)
    if sponsorship.is_paid:
        activate(sponsorship, actor)
    else:
        move(sponsorship, "await_payment", actor)
        if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
            queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def reject(sponsorship: Sponsorship, actor: Actor, note: str = "") -> Sponsorship:
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    move(sponsorship, "reject", actor, note or "rejected by staff")
    return sponsorship


def activate(sponsorship: Sponsorship, actor: Actor = None) -> None:
    """Active for the term its payment bought (``recording``); one marked paid with no
    term recorded runs for a year from today."""
    if sponsorship.starts_on is None:
        term = Term.one_year_from(timezone.localdate())
        sponsorship.starts_on, sponsorship.ends_on = term.starts_on, term.ends_on
        sponsorship.save(update_fields=["starts_on", "ends_on"])
    move(sponsorship, "activate", actor, "payment received and approved")


@transaction.atomic
def cancel(
    sponsorship: Sponsorship,
    actor: Actor,
    note: str = "cancelled",
    undoable_until: datetime | None = None,
) -> Sponsorship:
    """Cancel; Stripe is asked to end the subscription after the commit or, for a
    cancellation the sponsor may undo until ``undoable_until``, once that time has passed
    (``undo_cancel`` withdraws the request)."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.status == S.CANCELLED:
        return sponsorship
    move(sponsorship, "cancel", actor, note, undoable_until=undoable_until)
    if sponsorship.stripe_subscription_id:
        queue.enqueue(
            gateway.CANCEL_SUBSCRIPTION,
            not_before=undoable_until,
            subscription_id=sponsorship.stripe_subscription_id,
        )
    return sponsorship


@transaction.atomic
def stop_renewal(sponsorship: Sponsorship, actor: Actor) -> Sponsorship:
    """The sponsor's "cancel" of a paid year: nothing is renewed, and the organisation
    stays listed with every benefit until the paid term ends (then the daily renewal run
    closes it). A card renewal is stopped at Stripe once the undo window has passed."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if not sponsorship.in_term or sponsorship.ends_on is None:
        raise TransitionRefused("Only a running sponsorship has a renewal to stop.")
    if sponsorship.renewal_stopped_at:
        raise TransitionRefused("The renewal is already stopped.")
    now = timezone.now()
    sponsorship.renewal_stopped_at = now
    sponsorship.save(update_fields=["renewal_stopped_at"])
    transitions.record(
        sponsorship,
        actor=actor,
        note=f"renewal stopped by the sponsor; listed until {long_date(sponsorship.ends_on)}",
    )
    if sponsorship.stripe_subscription_id:
        queue.enqueue(
            gateway.CANCEL_SUBSCRIPTION,
            not_before=now + timedelta(minutes=settings.SPONSORSHIP_UNDO_MINUTES),
            subscription_id=sponsorship.stripe_subscription_id,
        )
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what="renewal_stopped")
    return sponsorship


@transaction.atomic
def resume_renewal(sponsorship: Sponsorship, actor: Actor) -> Sponsorship:
    """Take back a stopped renewal while the term runs. A card renewal Stripe has already
    ended cannot come back: the sponsor renews from the dashboard instead."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if not (sponsorship.in_term and sponsorship.renewal_stopped_at and sponsorship.ends_on):
        raise TransitionRefused("There is no stopped renewal to take back.")
    if sponsorship.stripe_subscription_id and not queue.withdraw(
        gateway.CANCEL_SUBSCRIPTION, subscription_id=sponsorship.stripe_subscription_id
    ):
        raise TransitionRefused(
            "Stripe has already ended the card renewal: renew by card from the "
            f"organisation's page before {long_date(sponsorship.ends_on)} instead."
        )
    sponsorship.renewal_stopped_at = None
    sponsorship.save(update_fields=["renewal_stopped_at"])
    transitions.record(sponsorship, actor=actor, note="renewal resumed by the sponsor")
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what="renewal_resumed")
    return sponsorship


def renewable(sponsorship: Sponsorship) -> bool:
    """May be renewed now: running, not renewed by Stripe on its own, and the next term
    not paid yet (one term is paid ahead at most)."""
    running = sponsorship.in_term and sponsorship.ends_on is not None
    return running and not sponsorship.renews_by_card and not sponsorship.terms_ahead


def is_withdrawal(sponsorship: Sponsorship) -> bool:
    """Cancelling now only takes back an application: nothing paid, nothing at Stripe."""
    return sponsorship.status in PAYABLE and sponsorship.nothing_paid


@transaction.atomic
def cancel_by_sponsor(sponsorship: Sponsorship, actor: Actor) -> bool:
    """Cancel (or withdraw) on the sponsor's confirmed request. Either can be undone for
    SPONSORSHIP_UNDO_MINUTES (the event records until when): Stripe is asked to end a
    subscription only once that window has passed. Answers whether it was a withdrawal
    (nothing paid)."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    withdrawal = is_withdrawal(sponsorship)
    if sponsorship.status == S.CANCELLED:
        raise TransitionRefused("This sponsorship is already cancelled.")
    window_ends = timezone.now() + timedelta(minutes=settings.SPONSORSHIP_UNDO_MINUTES)
    note = "application withdrawn by the sponsor" if withdrawal else "cancelled by the sponsor"
    cancel(sponsorship, actor, note, undoable_until=window_ends)
    return withdrawal


def _undoable_cancellation(sponsorship: Sponsorship) -> SponsorshipEvent | None:
    """The event that cancelled the sponsorship, if the sponsor may still undo it."""
    if sponsorship.status != S.CANCELLED:
        return None
    into_cancelled = sponsorship.events.filter(to_status=S.CANCELLED).exclude(
        from_status=S.CANCELLED  # a line of history written while cancelled (a late webhook)
    )
    cancelled = into_cancelled.order_by("-at", "-id").first()
    if cancelled is None or cancelled.undoable_until is None:
        return None
    return cancelled if timezone.now() < cancelled.undoable_until else None


def undo_deadline(sponsorship: Sponsorship) -> datetime | None:
    """When the sponsor's cancellation or withdrawal stops being reversible, or None."""
    cancelled = _undoable_cancellation(sponsorship)
    return cancelled.undoable_until if cancelled else None


@transaction.atomic
def undo_cancel(sponsorship: Sponsorship, actor: Actor) -> Sponsorship:
    """Put back a sponsorship cancelled (or an application withdrawn) a moment ago, in the
    state its cancellation event recorded: the request to Stripe that was waiting for the
    window to pass is withdrawn."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.status != S.CANCELLED:
        raise TransitionRefused("This sponsorship is not cancelled: there is nothing to undo.")
    cancelled = _undoable_cancellation(sponsorship)
    if cancelled is None:
        raise TransitionRefused(
            "This can no longer be undone: please apply again from the programmes page."
        )
    tier = Tier.objects.select_for_update().get(pk=sponsorship.tier_id)
    if tier.capacity is not None and tier.sponsorships.open().count() >= tier.capacity:
        raise TierFull(f"The {tier.name} tier filled up in the meantime.")
    if sponsorship.stripe_subscription_id and not queue.withdraw(
        gateway.CANCEL_SUBSCRIPTION, subscription_id=sponsorship.stripe_subscription_id
    ):
        raise TransitionRefused(
            "Stripe has already ended the subscription: please apply again from the "
            "programmes page."
        )
    what = "withdrawal" if sponsorship.nothing_paid else "cancellation"
    note = f"{what} undone by the sponsor"
    move(sponsorship, "undo_cancel", actor, note, mail_it=False, to=cancelled.from_status)
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=f"{what}_undone")
    return sponsorship


@transaction.atomic
def subscription_ended(subscription_id: str) -> None:
    """Stripe deleted the subscription (cancelled there, or unpaid): lapse at the end of the paid period."""
    for sponsorship in Sponsorship.objects.select_for_update().filter(
        stripe_subscription_id=subscription_id
    ):
        if (
            sponsorship.status in (S.ACTIVE, S.EXPIRING)
            and sponsorship.ends_on
            and sponsorship.ends_on < timezone.localdate()
        ):
            move(sponsorship, "lapse", note="subscription ended")
        elif sponsorship.status in (S.APPLIED, S.APPROVED, S.AWAITING_PAYMENT):
            move(sponsorship, "cancel", note="subscription ended before payment")


def run_renewals(today: date | None = None) -> dict[str, int]:
    """Daily: reminders 30 and 7 days before the end, expiring state, lapse after the grace period."""
    today = today or timezone.localdate()
    counts = {"reminders": 0, "expiring": 0, "lapsed": 0, "ended": 0}
    open_ = Sponsorship.objects.filter(status__in=[S.ACTIVE, S.EXPIRING], ends_on__isnull=False)
    for sponsorship in open_.select_related("organisation"):
        days_left = (sponsorship.ends_on - today).days
        with transaction.atomic():
            if sponsorship.renewal_stopped_at:
                if days_left < 0:  # the paid term is over and the sponsor asked not to renew
                    move(sponsorship, "cancel", note="paid term ended; renewal was stopped")
                    counts["ended"] += 1
                continue
            if days_left < -GRACE_DAYS:
                move(sponsorship, "lapse", note=f"not renewed within {GRACE_DAYS} days")
                counts["lapsed"] += 1
                continue
            if sponsorship.status == S.ACTIVE and days_left <= max(REMINDER_DAYS):
                move(sponsorship, "renewal_due", note="renewal due")
                counts["expiring"] += 1
            for days in REMINDER_DAYS:
                key = f"{sponsorship.ends_on.isoformat()}:{days}"
                if days_left <= days and key not in sponsorship.reminders_sent:
                    sponsorship.reminders_sent = [*sponsorship.reminders_sent, key]
                    sponsorship.save(update_fields=["reminders_sent"])
                    queue.enqueue(mail.RENEWAL_REMINDER, sponsorship_id=sponsorship.pk, days=days)
                    counts["reminders"] += 1
    return counts
