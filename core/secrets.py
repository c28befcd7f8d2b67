"""The site's secret settings and the rule production applies to them.

Each secret is a ``Secret``: its environment variable, its development default, what a
real value starts with, and any rule of its own. Core declares Django's ``SECRET_KEY``;
an app with secrets of its own declares them in a module without Django imports and
registers them from its ``AppConfig.ready()`` (``register``), so ``manage.py check
--deploy`` (``core.E003``) judges them; config/settings.py, read before any app is ready,
declares each setting from the same list and refuses to start with a bad one.

In production a secret that is missing, still its development default or a placeholder
from deploy/env.example stops start-up (and so ``check --deploy``) with a message naming
the variable; so does a secret published with the code (a development default, the test
suite's), one too short or too regular to be random (50 spaces, a word repeated), one
without the prefix its issuer gives it, and a DATABASE_URL or EMAIL_URL still holding
deploy/env.example's placeholder password. The README's table and deploy/env.example
list every name (tests/core/test_secrets.py checks it).

Token salts (``donations/signing.py``) are namespaces, not secrets: they are constants in
the code, and the signatures they salt are keyed by ``SECRET_KEY``.

Imported by the settings module: no Django imports here.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class Secret:
    """A secret setting. ``prefixes``: what a real value starts with (the random part
    follows); ``published``: values that come with the code (the test suite's), refused
    for every secret; ``rule(value, values)``: why the value is refused given the other
    settings it ``reads`` (in ``values``), or "" when it is not."""

    name: str
    development_default: str
    prefixes: tuple[str, ...] = ()
    published: frozenset[str] = frozenset()
    reads: tuple[str, ...] = ()
    rule: Callable[[str, Mapping[str, object]], str] | None = None


DJANGO_SECRET_KEY = Secret("SECRET_KEY", "dev-only-insecure-key-do-not-use-in-production")

_registered: dict[str, Secret] = {DJANGO_SECRET_KEY.name: DJANGO_SECRET_KEY}


def register(*secrets: Secret) -> None:
    """Judge these secrets too (apps call it from ``AppConfig.ready()``)."""
    for secret in secrets:
        _registered[secret.name] = secret


def registered() -> tuple[Secret, ...]:
    """Core's secrets and those the apps registered."""
    return tuple(_registered.values())


# deploy/env.example's values say "change me"; a copy nobody edited must not start.
PLACEHOLDER_MARKERS = ("change-me", "change_me", "changeme")
# Django's startproject writes development keys that start so.
INSECURE_PREFIX = "django-insecure-"
MINIMUM_SECRET_KEY_LENGTH = 50
# The random part of a secret: at least this long, at least this many different
# characters (a repeated word or a run of one character has few), and not one piece
# repeated. A generated secret (token_urlsafe, an issuer's) passes all three easily.
MINIMUM_RANDOM_LENGTH = 24
MINIMUM_DISTINCT_CHARACTERS = 10
# Settings that are URLs with a password in them: deploy/env.example's placeholder
# password must not reach production either.
PASSWORD_URL_SETTINGS = ("DATABASE_URL", "EMAIL_URL")


def _is_repetition(text: str) -> bool:
    """True when ``text`` is one piece written twice or more ("abcabc")."""
    return len(text) > 1 and text in (text + text)[1:-1]


def _weakness(secret: Secret, value: str) -> str:
    """Why ``value`` is too weak for ``secret``, or "" (never says the value)."""
    name = secret.name
    if value.strip() != value:
        return f"{name} begins or ends with white space."
    random_part = value
    if secret.prefixes:
        prefix = next((p for p in secret.prefixes if value.startswith(p)), None)
        if prefix is None:
            return f"{name} does not start with {' or '.join(secret.prefixes)}."
        random_part = value[len(prefix) :]
    if secret is DJANGO_SECRET_KEY and len(value) < MINIMUM_SECRET_KEY_LENGTH:
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


def setting_names(secrets: tuple[Secret, ...]) -> tuple[str, ...]:
    """Every setting ``refused_secrets`` reads for ``secrets``."""
    names = [name for secret in secrets for name in (secret.name, *secret.reads)]
    return tuple(dict.fromkeys([*names, *PASSWORD_URL_SETTINGS]))


def refused_secrets(
    values: Mapping[str, object], secrets: tuple[Secret, ...] | None = None
) -> list[str]:
    """Why each of ``secrets`` (the registered ones by default) cannot be used in
    production, given ``values`` (name -> value, for ``setting_names(secrets)``).

    Each message names the setting, never its value."""
    secrets = registered() if secrets is None else secrets
    published = {
        value for secret in secrets for value in (secret.development_default, *secret.published)
    }
    problems = []
    for secret in secrets:
        name, value = secret.name, str(values.get(secret.name, ""))
        if not value.strip():
            problems.append(f"{name} is not set.")
        elif value == secret.development_default:
            problems.append(f"{name} is the development default.")
        elif any(marker in value.lower() for marker in PLACEHOLDER_MARKERS):
            problems.append(f"{name} is still the placeholder from deploy/env.example.")
        elif value.startswith(INSECURE_PREFIX):
            problems.append(f"{name} is a development key ({INSECURE_PREFIX}…).")
        elif value in published:
            problems.append(f"{name} is a value published with the code (the test suite's).")
        elif weakness := _weakness(secret, value):
            problems.append(weakness)
    for name in PASSWORD_URL_SETTINGS:
        if _placeholder_password(str(values.get(name, ""))):
            problems.append(f"{name} still holds the placeholder password from deploy/env.example.")
    for secret in secrets:
        if secret.rule is not None and (
            problem := secret.rule(str(values.get(secret.name, "")), values)
        ):
            problems.append(problem)
    return problems


def refusal_message(problems: list[str]) -> str:
    return (
        "The production profile refuses to start with these secret settings:\n"
        + "\n".join(f"- {problem}" for problem in problems)
        + "\nSet them in the environment (see README, Production, and deploy/env.example)."
    )
