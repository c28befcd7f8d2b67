"""Deployment checks of payments (``manage.py check --deploy``): no fake Stripe in production.

A test key is refused at start-up with the other secrets (core/secrets.py).
"""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

from payments import stripe_js


@register(Tags.security, deploy=True)
def check_real_stripe(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    if not settings.PRODUCTION:
        return []
    errors: list[CheckMessage] = []
    if settings.STRIPE_API_BASE:
        errors.append(
            Error(
                f"STRIPE_API_BASE is {settings.STRIPE_API_BASE!r} under the production "
                "profile: it points Stripe calls at a fake.",
                hint="Leave STRIPE_API_BASE unset in production.",
                id="payments.E002",
            )
        )
    if not stripe_js.is_stripes():
        errors.append(
            Error(
                f"STRIPE_JS_URL is {settings.STRIPE_JS_URL!r} under the production profile: "
                "the pay pages would load a card field that is not Stripe's, and the card "
                "typed into it would go wherever that script sends it.",
                hint=f"Leave STRIPE_JS_URL unset in production (it is {stripe_js.STRIPE_JS_URL}).",
                id="payments.E003",
            )
        )
    return errors
