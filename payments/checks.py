"""Deployment checks of payments (``manage.py check --deploy``): no fake Stripe in production.

A test key is refused at start-up with the other secrets (core/secrets.py).
"""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def check_real_stripe(app_configs, **kwargs):
    if not settings.PRODUCTION:
        return []
    errors = []
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
