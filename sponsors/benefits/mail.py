"""Benefit reminders; texts are in templates/benefits/email/. Services record each
reminder in the outbox (``outbox.queue``), which calls these functions after the commit
and again until the mail server accepts it."""

from datetime import date

from django.conf import settings
from django.urls import reverse

from core.mail import send_templated_mail
from sponsors import mail as sponsor_mail
from sponsors.benefits.models import Delivery
from sponsors.models import Sponsorship

# The outbox kinds of these reminders (registered in BenefitsConfig.ready()).
SPONSOR_REMINDER = "benefits.sponsor_reminder"
STAFF_REMINDER = "benefits.staff_reminder"


def _send(template: str, context: dict, recipients: list[str]):
    if recipients:
        send_templated_mail(f"benefits/email/{template}", context, recipients)


def remind_sponsor(sponsorship_id: int, horizon: str):
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    items = (
        Delivery.objects.filter(sponsorship=sponsorship, state=Delivery.State.WAITING)
        .due_by(date.fromisoformat(horizon))
        .select_related("benefit")
    )
    organisation = sponsorship.organisation
    url = settings.SITE_URL + reverse("benefits:sponsorship", args=[sponsorship.pk])
    _send(
        "sponsor_reminder",
        {"organisation": organisation, "items": list(items), "url": url},
        sponsor_mail.recipients(sponsorship),
    )


def remind_staff(delivery_ids: list[int]):
    items = Delivery.objects.filter(pk__in=delivery_ids).select_related(
        "benefit", "sponsorship__organisation"
    )
    url = settings.SITE_URL + reverse("admin:benefits_delivery_changelist") + "?state__exact=to_do"
    _send("staff_reminder", {"items": list(items), "url": url}, settings.STAFF_NOTIFICATION_EMAILS)
