"""The site's secret settings, listed once, and the rule production applies to them.

``SECRET_SETTINGS`` maps each secret environment variable to its development default.
config/settings.py declares each setting from it; in production a secret that is
missing, still its development default or a placeholder from deploy/env.example stops
start-up (and so ``check --deploy``) with a message naming the variable; so does a
secret published with the code (the test suite's), one too short or too regular to be
random (50 spaces, a word repeated), a Stripe secret without Stripe's prefix, and a
DATABASE_URL or EMAIL_URL still holding deploy/env.example's placeholder password. The README's
table and deploy/env.example list every name (tests/core/test_secrets.py checks it).

Token salts (``donations/signing.py``) are namespaces, not secrets: they are constants in
the code, and the signatures they salt are keyed by ``SECRET_KEY``.

Imported by the settings module: no Django imports here.
"""

from urllib.parse import unquote, urlsplit

SECRET_SETTINGS = {
    "SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production",
    "STRIPE_SECRET_KEY": "sk_test_local",
    "STRIPE_WEBHOOK_SECRET": "whsec_local_development",
}

# deploy/env.example's values say "change me"; a copy nobody edited must not start.
PLACEHOLDER_MARKERS = ("change-me", "change_me", "changeme")
# Django's startproject writes development keys that start so.
INSECURE_PREFIX = "django-insecure-"
# Values published with the code (the test suite signs its events with these): anyone
# can read them, so they are as good as no secret.
PUBLISHED_VALUES = frozenset(
    {
        "whsec_test_secret",
        "whsec_test_donations",
        "sk_test_fake",
        *SECRET_SETTINGS.values(),
    }
)
MINIMUM_SECRET_KEY_LENGTH = 50
STRIPE_TEST_KEY_PREFIXES = ("sk_test_", "rk_test_")
# What each Stripe secret starts with; the random part after it is what is measured.
STRIPE_PREFIXES = {
    "STRIPE_SECRET_KEY": ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
    "STRIPE_WEBHOOK_SECRET": ("whsec_",),
}
# The random part of a secret: at least this long, at least this many different
# characters (a repeated word or a run of one character has few), and not one piece
# repeated. A generated secret (token_urlsafe, Stripe's) passes all three easily.
MINIMUM_RANDOM_LENGTH = 24
MINIMUM_DISTINCT_CHARACTERS = 10
# Settings that are URLs with a password in them: deploy/env.example's placeholder
# password must not reach production either.
PASSWORD_URL_SETTINGS = ("DATABASE_URL", "EMAIL_URL")


def _is_repetition(text: str) -> bool:
    """True when ``text`` is one piece written twice or more ("abcabc")."""
    return len(text) > 1 and text in (text + text)[1:-1]


def _weakness(name: str, value: str) -> str:
    """Why ``value`` is too weak for the secret ``name``, or "" (never says the value)."""
    if value.strip() != value:
        return f"{name} begins or ends with white space."
    random_part = value
    if name in STRIPE_PREFIXES:
        prefix = next((p for p in STRIPE_PREFIXES[name] if value.startswith(p)), None)
        if prefix is None:
            return f"{name} does not start with {' or '.join(STRIPE_PREFIXES[name])}."
        random_part = value[len(prefix) :]
    if name == "SECRET_KEY" and len(value) < MINIMUM_SECRET_KEY_LENGTH:
        return f"SECRET_KEY is shorter than {MINIMUM_SECRET_KEY_LENGTH} characters."
    if len(random_part) < MINIMUM_RANDOM_LENGTH:
        return f"{name} has fewer than {MINIMUM_RANDOM_LENGTH} random characters."
    if len(set(random_part)) < MINIMUM_DISTINCT_CHARACTERS or _is_repetition(random_part):
        return f"{name} is not random enough (a repeated word or too few different characters)."
    return ""


def _placeholder_password(url: str) -> bool:
    try:
        password = urlsplit(url).password or ""
    except ValueError:
        return False
    password = unquote(password).lower()
    return any(marker in password for marker in PLACEHOLDER_MARKERS)


def refused_secrets(values: dict[str, str], *, stripe_test_mode: bool) -> list[str]:
    """Why each secret in ``values`` (name -> value) cannot be used in production.

    ``values`` may also hold the PASSWORD_URL_SETTINGS; each message names the setting,
    never its value."""
    problems = []
    for name, development_default in SECRET_SETTINGS.items():
        value = values.get(name, "")
        if not value.strip():
            problems.append(f"{name} is not set.")
        elif value == development_default:
            problems.append(f"{name} is the development default.")
        elif any(marker in value.lower() for marker in PLACEHOLDER_MARKERS):
            problems.append(f"{name} is still the placeholder from deploy/env.example.")
        elif value.startswith(INSECURE_PREFIX):
            problems.append(f"{name} is a development key ({INSECURE_PREFIX}…).")
        elif value in PUBLISHED_VALUES:
            problems.append(f"{name} is a value published with the code (the test suite's).")
        elif weakness := _weakness(name, value):
            problems.append(weakness)
    for name in PASSWORD_URL_SETTINGS:
        if _placeholder_password(values.get(name, "")):
            problems.append(f"{name} still holds the placeholder password from deploy/env.example.")
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
