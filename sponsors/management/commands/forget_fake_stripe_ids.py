"""Development: forget the Stripe plans and customers an earlier Stripe fake made.

`make run` starts localstripe empty every time (the Procfile), while the database
keeps the ids of the plans (tiers) and customers (organisations) the last one made; the
next payment would name objects the fake no longer has. Without those ids the site makes
them again on first use. Refused in production and against the real Stripe.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from sponsors.models import Organisation, Tier


class Command(BaseCommand):
    help = "Forget the Stripe plan and customer ids a previous Stripe fake made (development)."

    def handle(self, *args, **options):
        if settings.PRODUCTION or not settings.STRIPE_API_BASE:
            raise CommandError("Only against a Stripe fake (STRIPE_API_BASE), never in production.")
        plans = Tier.objects.exclude(stripe_plan_id="").update(stripe_plan_id="")
        customers = Organisation.objects.exclude(stripe_customer_id="").update(
            stripe_customer_id=""
        )
        self.stdout.write(f"Forgot {plans} Stripe plan ids and {customers} customer ids.")
