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
suite's, or one with more after it), one too short or too regular to be random (50
spaces, a word repeated, runs of the alphabet: ``estimate_bits``), one
without the prefix its issuer gives it, and a DATABASE_URL or EMAIL_URL still holding
deploy/env.example's placeholder password. The README's table and deploy/env.example
list every name (tests/core/test_secrets.py checks it).

Token salts (``donations/signing.py``) are namespaces, not secrets: they are constants in
the code, and the signatures they salt are keyed by ``SECRET_KEY``.

Imported by the settings module: no Django imports here.
"""

import math
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
# The random part of a secret: at least this long, not one piece repeated, and enough
# estimated randomness (estimate_bits). A generated secret (token_urlsafe, an issuer's)
# passes all three easily.
MINIMUM_RANDOM_LENGTH = 24
# The random part of a secret must carry at least this many bits by estimate_bits. Made
# up, it scores under 80 (nine random characters written ten times, runs of the alphabet,
# words and digits); generated, over 110 for 24 URL-safe characters, over 90 for 32 hex
# digits (tests/core/test_secrets.py draws both).
MINIMUM_ESTIMATED_BITS = 85
# Values published with the code are refused as a part of a secret too (the development
# key with "1234" after it), when at least this long.
MINIMUM_PUBLISHED_PART = 12
# Settings that are URLs with a password in them: deploy/env.example's placeholder
# password must not reach production either.
PASSWORD_URL_SETTINGS = ("DATABASE_URL", "EMAIL_URL")
# Pieces a person types instead of random characters: each costs a guesser little.
KEYBOARD_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")
COMMON_WORDS = (
    "password", "passwd", "secret", "test", "example", "django", "stripe", "webhook",
    "admin", "letmein", "welcome", "qwerty", "mariadb", "portal", "insecure", "production",
    "development", "default", "local", "key",
)  # fmt: skip
_WORD_BITS = 5  # about what choosing one word of a list of COMMON_WORDS' length is worth
# Character classes: a random character is worth log2 of the classes' sizes together.
_CLASS_SIZES = ((str.islower, 26), (str.isupper, 26), (str.isdigit, 10))
_OTHER_CLASS_SIZE = 33


def _follows(previous: str, character: str) -> bool:
    """Whether ``character`` comes right after or before ``previous`` in the alphabet, the
    digits or a keyboard row (a run such as "abcd", "4321" or "qwer")."""
    if abs(ord(character) - ord(previous)) <= 1:
        return True
    pair = (previous + character).lower()
    return any(pair in row or pair[::-1] in row for row in KEYBOARD_ROWS)


def estimate_bits(text: str) -> float:
    """About how many bits of randomness ``text`` holds, for a guesser who tries common
    words, runs (the alphabet, the digits, a keyboard row, one character repeated) and
    repetitions of what came before: any other character is worth log2 of the size of
    the character classes the text uses. It only tells a made-up secret from a generated
    one; a generated one loses a few bits at most to chance runs and repetitions."""
    pool = sum(size for test, size in _CLASS_SIZES if any(test(c) for c in text if c.isascii()))
    if any(not (c.isascii() and c.isalnum()) for c in text):
        pool += _OTHER_CLASS_SIZE
    bits_per_character = math.log2(max(pool, 2))
    lowered = text.lower()
    bits, i = 0.0, 0
    while i < len(text):
        word = next((w for w in COMMON_WORDS if lowered.startswith(w, i)), None)
        if i >= 2 and text[i - 2 : i + 1] in text[:i]:
            i += 1  # these three characters, ending with it, came before
            continue
        if i >= 2 and _follows(text[i - 1], text[i]) and _follows(text[i - 2], text[i - 1]):
            i += 1  # a run goes on
            continue
        if word is not None:
            bits += 1 if word in lowered[:i] else _WORD_BITS
            i += len(word)
            continue
        if (i >= 1 and text[i - 1 : i + 1] in text[:i]) or (
            i >= 1 and _follows(text[i - 1], text[i])
        ):
            bits += 1  # a pair seen before, or a run begins
        else:
            bits += bits_per_character
        i += 1
    return bits


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
    if _is_repetition(random_part) or estimate_bits(random_part) < MINIMUM_ESTIMATED_BITS:
        return (
            f"{name} is not random enough (words, runs or repetitions: generate it, e.g. "
            "with python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
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
        elif value in published or any(
            len(part) >= MINIMUM_PUBLISHED_PART and part in value for part in published
        ):
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
