"""The site's secret settings, listed once, and the rule production applies to them.

``SECRET_SETTINGS`` maps each secret environment variable to its development default.
config/settings.py declares each setting from it; in production a secret that is
missing, still its development default or a placeholder from deploy/env.example stops
start-up (and so ``check --deploy``) with a message naming the variable. The README's
table and deploy/env.example list every name (tests/core/test_secrets.py checks it).

Token salts (``donations/signing.py``) are namespaces, not secrets: they are constants in
the code, and the signatures they salt are keyed by ``SECRET_KEY``.

Imported by the settings module: no Django imports here.
"""

SECRET_SETTINGS = {
    "SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production",
    "STRIPE_SECRET_KEY": "sk_test_local",
    "STRIPE_WEBHOOK_SECRET": "whsec_local_development",
}

# deploy/env.example's values say "change me"; a copy nobody edited must not start.
PLACEHOLDER_MARKERS = ("change-me", "change_me")
MINIMUM_SECRET_KEY_LENGTH = 50
STRIPE_TEST_KEY_PREFIXES = ("sk_test_", "rk_test_")


def refused_secrets(values: dict[str, str], *, stripe_test_mode: bool) -> list[str]:
    """Why each secret in ``values`` (name -> value) cannot be used in production."""
    problems = []
    for name, development_default in SECRET_SETTINGS.items():
        value = values.get(name, "")
        if not value:
            problems.append(f"{name} is not set.")
        elif value == development_default:
            problems.append(f"{name} is the development default.")
        elif any(marker in value.lower() for marker in PLACEHOLDER_MARKERS):
            problems.append(f"{name} is still the placeholder from deploy/env.example.")
    secret_key = values.get("SECRET_KEY", "")
    if secret_key and len(secret_key) < MINIMUM_SECRET_KEY_LENGTH:
        problems.append(f"SECRET_KEY is shorter than {MINIMUM_SECRET_KEY_LENGTH} characters.")
    stripe_key = values.get("STRIPE_SECRET_KEY", "")
    if stripe_key.startswith(STRIPE_TEST_KEY_PREFIXES) and not stripe_test_mode:
        problems.append(
            "STRIPE_SECRET_KEY is a Stripe test key (sk_test_…); set STRIPE_TEST_MODE=true "
            "if this deployment is meant to take test payments."
        )
    return problems


def refusal_message(problems: list[str]) -> str:
    return (
        "The production profile refuses to start with these secret settings:\n"
        + "\n".join(f"- {problem}" for problem in problems)
        + "\nSet them in the environment (see README, Production, and deploy/env.example)."
    )
