"""Development: have the Stripe fake (localstripe) deliver its events to this site's
webhook, signed with STRIPE_WEBHOOK_SECRET, as Stripe does for a configured endpoint.
``prepare_devstack`` runs it once the fake answers. Refused under the production profile."""

from typing import Any

import requests
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

WEBHOOK_ID = "devstack"


class Command(BaseCommand):
    help = "Have the Stripe fake (STRIPE_API_BASE) post its signed events to /stripe/webhook/."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError("Development only: refused under DJANGO_ENV=production.")
        if not settings.STRIPE_API_BASE:
            raise CommandError("STRIPE_API_BASE must name the Stripe fake (make run sets it).")
        # localstripe's own call (POST /_config/webhooks/<id>), not part of Stripe's API.
        requests.post(
            f"{settings.STRIPE_API_BASE}/_config/webhooks/{WEBHOOK_ID}",
            data={
                "url": settings.SITE_URL + reverse("payments:stripe-webhook"),
                "secret": settings.STRIPE_WEBHOOK_SECRET,
            },
            timeout=10,
        ).raise_for_status()
        self.stdout.write(f"The Stripe fake delivers its events to {settings.SITE_URL}.")
