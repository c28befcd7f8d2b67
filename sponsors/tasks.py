from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail

from sponsors.models import Sponsorship

SUBJECTS = {
    "approved": "Your sponsorship application was approved",
    "awaiting_payment": "Your sponsorship is approved and awaiting payment",
    "active": "Your sponsorship is active: thank you!",
    "rejected": "About your sponsorship application",
    "expiring": "Your sponsorship is due for renewal",
    "lapsed": "Your sponsorship has lapsed",
    "cancelled": "Your sponsorship was cancelled",
    "payment_failed": "A sponsorship payment failed",
}


def _recipients(sponsorship):
    organisation = sponsorship.organisation
    return sorted(
        {organisation.billing_email, *organisation.managers.values_list("email", flat=True)} - {""}
    )


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_sponsorship_mail(sponsorship_id: int, what: str):
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    if what not in SUBJECTS:
        return
    send_mail(
        subject=SUBJECTS[what],
        message=(
            f"{sponsorship.organisation.name}: {sponsorship.terms['tier']} {sponsorship.terms['programme']} "
            f"{sponsorship.terms['year']} is now {sponsorship.get_status_display().lower()}.\n\n"
            f"Manage it at {settings.SITE_URL}/sponsors/dashboard/\n"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=_recipients(sponsorship),
    )


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_renewal_reminder(sponsorship_id: int, days: int):
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    send_mail(
        subject=f"Your sponsorship ends in {days} days",
        message=(
            f"{sponsorship.organisation.name}'s {sponsorship.terms['tier']} sponsorship ends on "
            f"{sponsorship.ends_on:%d %B %Y}. Renew at {settings.SITE_URL}/sponsors/dashboard/\n"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=_recipients(sponsorship),
    )


@shared_task
def run_sponsorship_renewals():
    from sponsors.services import run_renewals

    return run_renewals()
