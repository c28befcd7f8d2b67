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
suite's fakes, a value once written in the repository: ``PUBLISHED_DIGESTS``; also with
more around it), one without the prefix its issuer gives it, one too short, and one a
guesser would find: zxcvbn (the field's estimator, with the site's own words) finds it
guessable (sequences, keyboard patterns, repetitions, dates, common passwords), or words
make up most of it (a phrase). A DATABASE_URL or EMAIL_URL still holding
deploy/env.example's placeholder password is refused too. The README's table and
deploy/env.example list every name (tests/core/test_secrets.py checks it).

Token salts (``donations/signing.py``) are namespaces, not secrets: they are constants in
the code, and the signatures they salt are keyed by ``SECRET_KEY``.

Imported by the settings module: no Django imports here.
"""

import functools
import hashlib
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
# The random part of a secret (after its issuer's prefix) has at least this many characters.
MINIMUM_RANDOM_LENGTH = 24
# zxcvbn counts a character it cannot explain as 10 guesses: a random part scores about
# 10^0.9 a character (10^22 or more for 24 generated characters; 10^19.4 at worst for 24
# hex digits, in thousands of draws), one made up of sequences, keyboard rows,
# repetitions, dates or common passwords far less (the attacker's "acegikmoqsuwyACEG..."
# 10^0.2 a character, "password0" repeated 10^0.5). Refused below 10^0.75 a character.
MINIMUM_GUESSES_LOG10_PER_CHARACTER = 0.75
# A phrase is guessed from a list of phrases, not character by character: a secret of
# which words (zxcvbn's lists of words, names and common passwords, and the site's own) of
# WORD_LETTERS letters or more make up at least this share of the letters and digits is
# refused. The quick brown fox: all of them; words with digits between ("admin00..."):
# 0.68 or more; a generated secret: 0.5 at most in thousands of draws.
MAXIMUM_WORD_SHARE = 0.6
WORD_LETTERS = 3
# zxcvbn's time grows with the square of the length: the first characters of the random
# part are judged (a part whose first 40 are random is random enough), which keeps
# start-up under a tenth of a second per secret (docs/PERFORMANCE.md).
JUDGED_LENGTH = 40
# Words of this site a made-up secret is built from, beside zxcvbn's dictionaries (which
# hold English words such as "foundation") and the site's name and host (SITE_SETTINGS).
SITE_WORDS = ("mariadb", "portal", "production", "secret", "key", "stripe", "webhook",
              "django", "live", "test", "whsec")  # fmt: skip
# Settings that are URLs with a password in them: deploy/env.example's placeholder
# password must not reach production either.
PASSWORD_URL_SETTINGS = ("DATABASE_URL", "EMAIL_URL")
# Settings whose words a made-up secret may borrow (the site's name, its host).
SITE_SETTINGS = ("SITE_NAME", "SITE_URL")
# Values once written in the repository that looked real (issue 58: they passed check
# --deploy, and anyone who read the code could sign webhooks with them): SHA-256 of each
# random part by its length, so that they are refused, also with anything around them,
# without being written here again.
PUBLISHED_DIGESTS: dict[int, frozenset[str]] = {
    24: frozenset({"2254f67b67fbc32844e849325791d1ec108b46eb3b266ba475f3146efc3f75df"}),
    32: frozenset({"bb90a570173f15bdfd2d3f65225c60559a386b503465fa1c3a8bf62a3860666a"}),
    43: frozenset({"668c0b8ebf7d5b2b0d364960c76317cf94d26cf8402bb6b18e9fe256da12ad9f"}),
}
# Values published with the code are refused as a part of a secret too (the development
# key with "1234" after it), when at least this long.
MINIMUM_PUBLISHED_PART = 12


def holds_a_published_value(value: str) -> bool:
    """Whether ``value`` contains one of PUBLISHED_DIGESTS' values."""
    return any(
        hashlib.sha256(value[start : start + length].encode()).hexdigest() in digests
        for length, digests in PUBLISHED_DIGESTS.items()
        for start in range(len(value) - length + 1)
    )


def _word_share(text: str, words: list[str]) -> float:
    """The largest share of ``text``'s letters and digits that words of WORD_LETTERS
    letters or more (zxcvbn's lists, and ``words``) cover, without overlapping."""
    from zxcvbn import matching as zxcvbn_matching  # only production judges: 0.2 s to load

    dictionaries = dict(zxcvbn_matching.RANKED_DICTIONARIES)
    dictionaries["user_inputs"] = zxcvbn_matching.build_ranked_dict(words)
    spans: dict[int, list[int]] = {}
    for match in zxcvbn_matching.dictionary_match(text, dictionaries):
        if len(match["token"]) >= WORD_LETTERS and match["token"].isalpha():
            spans.setdefault(match["j"] + 1, []).append(match["i"])
    covered = [0] * (len(text) + 1)
    for end in range(1, len(text) + 1):
        covered[end] = max(
            [covered[end - 1]] + [covered[start] + end - start for start in spans.get(end, [])]
        )
    letters_and_digits = sum(character.isalnum() for character in text)
    return covered[-1] / max(letters_and_digits, 1)


@functools.lru_cache(maxsize=64)
def _guessable(text: str, words: tuple[str, ...]) -> str:
    """Why a guesser would find ``text`` ("a phrase", "guessable"), or ""."""
    from zxcvbn import zxcvbn  # only production judges: 0.2 s to load

    judged = text[:JUDGED_LENGTH]
    if _word_share(judged, list(words)) >= MAXIMUM_WORD_SHARE:
        return "a phrase"
    guesses_log10 = zxcvbn(judged, user_inputs=list(words))["guesses_log10"]
    if guesses_log10 < MINIMUM_GUESSES_LOG10_PER_CHARACTER * len(judged):
        return "guessable"
    return ""


def _site_words(secret: Secret, values: Mapping[str, object]) -> tuple[str, ...]:
    """SITE_WORDS, the words of the setting's name and of the site's name and host."""
    text = " ".join([secret.name, *(str(values.get(name, "")) for name in SITE_SETTINGS)])
    pieces = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return tuple(dict.fromkeys([*SITE_WORDS, *(p for p in pieces if len(p) >= WORD_LETTERS)]))


def _is_repetition(text: str) -> bool:
    """True when ``text`` is one piece written twice or more ("abcabc")."""
    return len(text) > 1 and text in (text + text)[1:-1]


def _weakness(secret: Secret, value: str, values: Mapping[str, object]) -> str:
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
    why = "guessable" if _is_repetition(random_part) else ""
    why = why or _guessable(random_part, _site_words(secret, values))
    if why == "a phrase":
        return (
            f"{name} is a phrase (words, not random characters: generate it, e.g. with "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    if why:
        return (
            f"{name} is guessable (sequences, keyboard rows, repetitions, dates or common "
            "passwords: generate it, e.g. with "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))')."
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
    return tuple(dict.fromkeys([*names, *PASSWORD_URL_SETTINGS, *SITE_SETTINGS]))


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
        elif (
            value in published
            or any(len(part) >= MINIMUM_PUBLISHED_PART and part in value for part in published)
            or holds_a_published_value(value)
        ):
            problems.append(f"{name} is a value published with the code.")
        elif weakness := _weakness(secret, value, values):
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
