"""Deployment checks of payments (``manage.py check --deploy``): no test Stripe in production."""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def check_live_stripe(app_configs, **kwargs):
    if not settings.PRODUCTION:
        return []
    errors = []
    if settings.STRIPE_SECRET_KEY.startswith(("sk_test_", "rk_test_")):
        errors.append(
            Error(
                "STRIPE_SECRET_KEY is a Stripe test key under the production profile: "
                "no payment would be real.",
                hint="Set STRIPE_SECRET_KEY to the live key (sk_live_...).",
                id="payments.E001",
            )
        )
    if settings.STRIPE_API_BASE:
        errors.append(
            Error(
                f"STRIPE_API_BASE is {settings.STRIPE_API_BASE!r} under the production "
                "profile: it points Stripe calls at a fake and opens the test-only card "
                "form, which sends card numbers through this site.",
                hint="Leave STRIPE_API_BASE unset in production.",
                id="payments.E002",
            )
        )
    return errors
