"""Benefit delivery workflows: create the items a sponsorship is owed, take the sponsor's
assets, mark items delivered, and remind both sides before things are due."""

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core import transitions
from outbox import queue
from sponsors import logos
from sponsors.benefits import mail
from sponsors.benefits.models import Benefit, Delivery
from sponsors.models import Sponsorship

OWED_STATUSES = (Sponsorship.Status.ACTIVE, Sponsorship.Status.EXPIRING)
REMIND_AGAIN_AFTER_DAYS = 7


def ensure_deliveries(sponsorships: Iterable[Sponsorship]) -> int:
    """Create the missing delivery items of active sponsorships; returns how many."""
    created = 0
    for sponsorship in sponsorships:
        if sponsorship.status not in OWED_STATUSES:
            continue
        start = sponsorship.starts_on or timezone.localdate()
        for benefit in sponsorship.tier.benefit_items.all():
            needs_sponsor = benefit.asset != Benefit.Asset.NONE
            _, was_created = Delivery.objects.get_or_create(
                sponsorship=sponsorship,
                benefit=benefit,
                defaults={
                    "state": Delivery.State.WAITING if needs_sponsor else Delivery.State.TO_DO,
                    "due_on": start + timedelta(days=benefit.due_days),
                },
            )
            created += was_created
    return created


def ensure_all_deliveries() -> int:
    owed = Sponsorship.objects.filter(status__in=OWED_STATUSES).select_related("tier")
    return ensure_deliveries(owed.prefetch_related("tier__benefit_items"))


def _validated_logo(delivery: Delivery, upload: "File[Any]") -> "ContentFile[bytes]":
    clean, _thumbnail = logos.process_logo(upload)
    extension = (clean.name or "").rsplit(".", 1)[-1].lower()
    accepted = delivery.benefit.formats
    if accepted and extension not in accepted and not (extension == "jpg" and "jpeg" in accepted):
        names = ", ".join(f.upper() for f in accepted)
        raise ValidationError(
            f"This benefit needs the logo as {names}; this file is {extension.upper()}."
        )
    return clean


def submit(
    delivery: Delivery, *, upload: "File[Any] | None" = None, text: str = "", url: str = ""
) -> Delivery:
    """The sponsor hands over what the benefit needs. Raises ValidationError and changes nothing."""
    benefit = delivery.benefit
    if not transitions.may(delivery, "submit"):
        raise ValidationError("This benefit has already been delivered.")
    if benefit.asset == Benefit.Asset.LOGO:
        if upload is None:
            raise ValidationError("Choose the logo file to upload.")
        delivery.asset_file = _validated_logo(delivery, upload)
    elif benefit.asset == Benefit.Asset.TEXT:
        text = text.strip()
        if not text:
            raise ValidationError("Type the text.")
        if len(text) > benefit.text_max_length:
            raise ValidationError(
                f"The text is {len(text)} characters; this benefit takes at most {benefit.text_max_length}."
            )
        delivery.asset_text = text
    elif benefit.asset == Benefit.Asset.LINK:
        URLValidator(schemes=["https", "http"])(url)
        delivery.asset_url = url
    else:
        raise ValidationError("This benefit needs nothing from you.")
    delivery.submitted_at = timezone.now()
    transitions.apply(delivery, "submit", note="handed over by the sponsor")
    return delivery


WITH_EVIDENCE = Q(evidence_url__gt="") | Q(evidence_file__gt="")


@transaction.atomic
def mark_delivered(deliveries: Iterable[Delivery], staff_user: User) -> tuple[int, int]:
    """Mark delivered those that show how (a link or a file); answers (marked, refused)."""
    outstanding = Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).outstanding()
    refused = outstanding.exclude(WITH_EVIDENCE).count()
    now = timezone.now()
    marked = 0
    for delivery in outstanding.filter(WITH_EVIDENCE).select_for_update():
        delivery.delivered_at, delivery.delivered_by = now, staff_user
        transitions.apply(delivery, "deliver", actor=staff_user, note="marked delivered")
        marked += 1
    return marked, refused


def send_reminders(today: date | None = None) -> tuple[int, int]:
    """Remind sponsors of what they owe and staff of what they owe; returns both counts.

    Items due within BENEFIT_REMINDER_DAYS (or overdue) are reminded once a week at most.
    """
    today = today or timezone.localdate()
    horizon = today + timedelta(days=settings.BENEFIT_REMINDER_DAYS)
    quiet_since = today - timedelta(days=REMIND_AGAIN_AFTER_DAYS - 1)
    due = Delivery.objects.due_by(horizon).not_reminded_since(quiet_since)
    waiting = list(due.filter(state=Delivery.State.WAITING).values_list("sponsorship", flat=True))
    to_do = list(due.filter(state=Delivery.State.TO_DO).values_list("pk", flat=True))
    sponsorships = sorted(set(waiting))
    with transaction.atomic():
        due.filter(state__in=[Delivery.State.WAITING, Delivery.State.TO_DO]).update(
            reminded_on=today
        )
        for sponsorship_id in sponsorships:
            queue.enqueue(
                mail.SPONSOR_REMINDER, sponsorship_id=sponsorship_id, horizon=horizon.isoformat()
            )
        if to_do:
            queue.enqueue(mail.STAFF_REMINDER, delivery_ids=to_do)
    return len(sponsorships), len(to_do)
