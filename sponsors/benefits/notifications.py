"""Benefit reminders by mail: Celery tasks with retries, subjects and bodies from templates."""

from datetime import date

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from sponsors.benefits.models import Delivery
from sponsors.models import Sponsorship

MAIL_RETRY = {"autoretry_for": (OSError,), "retry_backoff": True, "max_retries": 5}


def _send(template: str, context: dict, recipients: list[str]):
    if not recipients:
        return
    subject = render_to_string(f"benefits/email/{template}_subject.txt", context)
    send_mail(
        subject=" ".join(subject.split()),
        message=render_to_string(f"benefits/email/{template}_body.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=recipients,
    )


@shared_task(**MAIL_RETRY)
def remind_sponsor(sponsorship_id: int, horizon: str):
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    items = (
        Delivery.objects.filter(sponsorship=sponsorship, state=Delivery.State.WAITING)
        .due_by(date.fromisoformat(horizon))
        .select_related("benefit")
    )
    organisation = sponsorship.organisation
    recipients = sorted(
        {organisation.billing_email, *organisation.managers.values_list("email", flat=True)} - {""}
    )
    url = settings.SITE_URL + reverse("benefits:sponsorship", args=[sponsorship.pk])
    _send(
        "sponsor_reminder",
        {"organisation": organisation, "items": list(items), "url": url},
        recipients,
    )


@shared_task(**MAIL_RETRY)
def remind_staff(delivery_ids: list[int]):
    items = Delivery.objects.filter(pk__in=delivery_ids).select_related(
        "benefit", "sponsorship__organisation"
    )
    url = settings.SITE_URL + reverse("admin:benefits_delivery_changelist") + "?state__exact=to_do"
    _send("staff_reminder", {"items": list(items), "url": url}, settings.STAFF_NOTIFICATION_EMAILS)
