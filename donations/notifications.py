"""Mail to donors: Celery tasks with retries, subjects and bodies from templates.

Services enqueue these on commit; nothing here changes the database.
"""

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from donations.models import Donation, Gift
from donations.signing import manage_token

MAIL_RETRY = {"autoretry_for": (OSError,), "retry_backoff": True, "max_retries": 5}


def manage_url(donation: Donation) -> str:
    return settings.SITE_URL + reverse("donations:manage", args=[manage_token(donation.reference)])


def _send(template: str, context: dict, recipient: str):
    subject = render_to_string(f"donations/email/{template}_subject.txt", context)
    body = render_to_string(f"donations/email/{template}_body.txt", context)
    send_mail(
        subject=" ".join(subject.split()),
        message=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[recipient],
    )


@shared_task(**MAIL_RETRY)
def send_receipt(gift_id: int):
    gift = Gift.objects.select_related("donation").get(pk=gift_id)
    donation = gift.donation
    if not donation.email:
        return
    context = {
        "gift": gift,
        "donation": donation,
        "manage_url": manage_url(donation),
        "site_url_donate": settings.SITE_URL + reverse("donations:manage-request"),
    }
    _send("receipt", context, donation.email)


@shared_task(**MAIL_RETRY)
def send_payment_failed(donation_id: int):
    donation = Donation.objects.get(pk=donation_id)
    if not donation.email:
        return
    _send(
        "payment_failed", {"donation": donation, "manage_url": manage_url(donation)}, donation.email
    )


@shared_task(**MAIL_RETRY)
def send_manage_links(email: str):
    donations = list(Donation.objects.given().filter(email__iexact=email))
    if not donations:
        return
    links = [(donation, manage_url(donation)) for donation in donations]
    _send("manage_links", {"links": links}, donations[0].email)
