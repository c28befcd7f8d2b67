"""Stripe's secrets, judged with the site's other secrets (core/secrets.py).

No Django imports: config/settings.py declares the settings from this list before any
app is ready; ``PaymentsConfig.ready()`` registers it for ``check --deploy``.
"""

from collections.abc import Mapping

from core.secrets import Secret

STRIPE_TEST_KEY_PREFIXES = ("sk_test_", "rk_test_")


def _test_key_needs_test_mode(value: str, values: Mapping[str, object]) -> str:
    if value.startswith(STRIPE_TEST_KEY_PREFIXES) and not values.get("STRIPE_TEST_MODE"):
        return (
            "STRIPE_SECRET_KEY is a Stripe test key (sk_test_…); set STRIPE_TEST_MODE=true "
            "if this deployment is meant to take test payments."
        )
    return ""


STRIPE_SECRETS = (
    Secret(
        "STRIPE_SECRET_KEY",
        "sk_test_local",
        prefixes=("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
        # The test suite's key, published with the code.
        published=frozenset({"sk_test_fake"}),
        reads=("STRIPE_TEST_MODE",),
        rule=_test_key_needs_test_mode,
    ),
    Secret(
        "STRIPE_WEBHOOK_SECRET",
        "whsec_local_development",
        prefixes=("whsec_",),
        # The test suite signs its events with these: anyone can read them.
        published=frozenset({"whsec_test_secret", "whsec_test_donations"}),
    ),
)
