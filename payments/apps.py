from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Payments"

    def ready(self) -> None:
        from core import edge
        from core import secrets as site_secrets
        from outbox import registry
        from payments import (
            checks,  # noqa: F401 - registers the deploy checks (no fake Stripe)
            dispatch,
            gateway,
            handlers,
        )
        from payments.secrets import STRIPE_SECRETS

        for event_type, handler in handlers.HANDLERS.items():
            dispatch.register(event_type, handler)
        # Ending a subscription after the commit that let it go (sponsorships and gifts).
        registry.register(gateway.CANCEL_SUBSCRIPTION, gateway.cancel_subscription, keyed=True)

        # Stripe's key and webhook secret, judged with the site's others (core.E003).
        site_secrets.register(*STRIPE_SECRETS)
        edge.keep_private("/stripe/")  # the webhook endpoint
        # Payments, refunds and disputes make the public funding figures.
        edge.watch_app(self, except_for=("stripeevent",))
