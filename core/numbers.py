"""The one reader of numbers that come from outside: integers, dates, months and version
strings in addresses, query strings, forms, uploads and webhooks (issue 58).

Python reads far more than the digits 0-9 as digits: a full-width 3 and an Arabic-Indic
3 are 3 to ``int()``, ``"²".isdigit()`` is true while ``int("²")`` raises, ``\\d`` in a
``re`` pattern matches every script's decimal digits, and Django's date parsing follows
``\\d`` (``strptime`` reads "2026-11-2" and an Arabic-Indic 3 as the 23rd). Read through
those, a number from outside was a 500 (``?days=²``), or was taken as the number it looks
like under another spelling (``?page=`` with a full-width 2 served page 2 under an
address of its own). Here a number is ASCII digits only; anything else is a
``NumberRefused`` whose message says what was expected, for a 400 or a form error.

Patterns that must match digits spell them ``[0-9]``, never ``\\d``.
"""

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.http import QueryDict

ASCII_DIGITS = frozenset("0123456789")
# Whole numbers from outside stay well inside a PostgreSQL bigint.
MAX_DIGITS = 18

_INTEGER = re.compile(rf"(?P<sign>-?)(?P<digits>[0-9]{{1,{MAX_DIGITS}}})")
_DECIMAL = re.compile(r"-?[0-9]{1,18}(?:\.[0-9]{1,18})?")
_DATE = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")
_MONTH = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})")
# A version as a server prints it: an optional product name ("MariaDB 10.2.8",
# "MariaDB-5.5.21-beta"), the release (two to four numbers), then what the build added
# ("-MariaDB-0+deb12u1", "-log"), which must not continue the release's numbers.
_VERSION = re.compile(
    r"(?:mariadb[ -])?(?P<release>[0-9]{1,4}(?:\.[0-9]{1,6}){1,3})(?P<suffix>(?:[-+~_ ].*)?)",
    re.IGNORECASE,
)
# Over the client protocol 10.x servers print "5.5.5-" before their real version.
_COMPATIBILITY_PREFIX = "5.5.5-"
MAX_VERSION_LENGTH = 200


class NumberRefused(BadRequest, ValueError):
    """A number, date or version from outside that is not written as one: the message
    says what was expected, naming the field, e.g. "“days” must be a whole number written
    with the digits 0-9, such as 30: “²” (U+00B2) is not one of them.". Raised out of a
    view it is a 400 with that message (``core.hostile.RefuseBadNumbersMiddleware``)."""


def _quoted(name: str) -> str:
    return f"“{name}”"


def stray_character(text: str) -> str | None:
    """The first character that looks like a digit but is not one of 0-9 (a superscript,
    a full-width or circled digit, another script's digit), or None."""
    for character in text:
        if character in ASCII_DIGITS:
            continue
        if character.isnumeric() or unicodedata.category(character) == "Nd":
            return character
    return None


def _why(text: str) -> str:
    stray = stray_character(text)
    if stray is not None:
        return f": “{stray}” (U+{ord(stray):04X}) is not one of them"
    return ""


def is_ascii_integer(text: Any) -> bool:
    """True for a str of 1 to MAX_DIGITS ASCII digits (no sign, no space)."""
    return isinstance(text, str) and bool(re.fullmatch(rf"[0-9]{{1,{MAX_DIGITS}}}", text))


def parse_int(
    text: Any,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    example: int | None = None,
) -> int:
    """A whole number written with ASCII digits (a leading "-" only when ``minimum`` allows
    negative numbers), within ``minimum``..``maximum``; else ``NumberRefused``."""
    shown = example if example is not None else (minimum if minimum and minimum > 0 else 1)
    wanted = f"{_quoted(name)} must be a whole number written with the digits 0-9, such as {shown}"
    if isinstance(text, bool) or not isinstance(text, str | int):
        raise NumberRefused(wanted + ".")
    if isinstance(text, int):
        number = text
    else:
        match = _INTEGER.fullmatch(text)
        if match is None or (match["sign"] and (minimum is None or minimum >= 0)):
            raise NumberRefused(wanted + _why(text) + ".")
        number = int(match["sign"] + match["digits"])
    if minimum is not None and number < minimum:
        raise NumberRefused(f"{_quoted(name)} must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise NumberRefused(f"{_quoted(name)} must be at most {maximum}.")
    return number


def parse_decimal(text: Any, name: str) -> Decimal:
    """An amount written with ASCII digits and at most one point (``5000``, ``25.50``)."""
    match = _DECIMAL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NumberRefused(
            f"{_quoted(name)} must be an amount written with the digits 0-9, such as 25.50"
            + (_why(text) if isinstance(text, str) else "")
            + "."
        )
    return Decimal(text)


def parse_date(text: Any, name: str) -> date:
    """A calendar date written YYYY-MM-DD in ASCII digits; else ``NumberRefused``."""
    wanted = (
        f"{_quoted(name)} must be a date written YYYY-MM-DD with the digits 0-9, such as 2026-11-22"
    )
    match = _DATE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NumberRefused(wanted + (_why(text) if isinstance(text, str) else "") + ".")
    try:
        return date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError as error:
        raise NumberRefused(f"{_quoted(name)}: {text} is not a day of the calendar.") from error


def parse_month(text: Any, name: str) -> date:
    """A month written YYYY-MM in ASCII digits, as the first day of that month."""
    wanted = f"{_quoted(name)} must be a month written YYYY-MM with the digits 0-9, such as 2026-11"
    match = _MONTH.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NumberRefused(wanted + (_why(text) if isinstance(text, str) else "") + ".")
    try:
        return date(int(match["year"]), int(match["month"]), 1)
    except ValueError as error:
        raise NumberRefused(f"{_quoted(name)}: {text} is not a month of the calendar.") from error


@dataclass(frozen=True)
class Version:
    """A release and what the build printed after it: ``10.11.19-MariaDB-0+deb12u1`` is
    release ``(10, 11, 19)`` with suffix ``-MariaDB-0+deb12u1``."""

    numbers: tuple[int, ...]
    suffix: str = ""

    @property
    def release(self) -> str:
        """The release it names, the same however the server printed it: ``10.11.19``."""
        return ".".join(str(number) for number in self.numbers)

    @property
    def printed(self) -> str:
        return self.release + self.suffix


def parse_version(text: Any, name: str = "server_version") -> Version:
    """The release a version string names, as servers and people write it: ``11.4.9``,
    ``10.11.19-MariaDB-0+deb12u1``, ``11.4.10-MariaDB-log``, ``5.5.5-10.6.12-MariaDB``,
    ``MariaDB 10.2.8``. ASCII digits only; else ``NumberRefused``."""
    wanted = (
        f"{_quoted(name)} must start with a release written with the digits 0-9, such as "
        "11.4.9 or 10.11.19-MariaDB-0+deb12u1"
    )
    if not isinstance(text, str):
        raise NumberRefused(wanted + ".")
    text = text.strip()
    if len(text) > MAX_VERSION_LENGTH:
        raise NumberRefused(f"{_quoted(name)} is at most {MAX_VERSION_LENGTH} characters long.")
    if text.startswith(_COMPATIBILITY_PREFIX) and _VERSION.fullmatch(
        text[len(_COMPATIBILITY_PREFIX) :]
    ):
        text = text[len(_COMPATIBILITY_PREFIX) :]
    match = _VERSION.fullmatch(text)
    if match is None:
        raise NumberRefused(wanted + _why(text) + ".")
    return Version(tuple(int(part) for part in match["release"].split(".")), match["suffix"])


def version_key(text: str) -> tuple[object, ...]:
    """Sorts version strings by what they name (11.4.10 after 11.4.9), whatever they hold:
    a part that is not ASCII digits sorts as text after the numbers (never an error, so a
    stored oddity cannot break a page)."""
    try:
        version = parse_version(text)
    except NumberRefused:
        parts = re.split(r"[.\-+~ ]", text or "")
        return (1, tuple((0, int(p), "") if is_ascii_integer(p) else (1, 0, p) for p in parts))
    return (0, tuple((0, n, "") for n in version.numbers), version.suffix)


def page_number(query: QueryDict, name: str = "page") -> int:
    """The page a query string asks for: 1 when it names none, else ASCII digits from 1."""
    text = query.get(name)
    if text in (None, ""):
        return 1
    return parse_int(text, name, minimum=1, example=2)


# Form fields: Django's IntegerField, DecimalField and DateField convert with int(),
# Decimal() and dateparse, which read every script's digits, before any validator runs.


def _refuse_stray_digits(field: forms.Field, value: Any) -> None:
    if isinstance(value, str) and stray_character(value) is not None:
        label = field.label or "This field"
        raise forms.ValidationError(
            f"{label} must be written with the digits 0-9{_why(value)}.", code="invalid"
        )


class IntegerField(forms.IntegerField):
    def to_python(self, value: Any) -> int | None:
        _refuse_stray_digits(self, value)
        return super().to_python(value)


class DecimalField(forms.DecimalField):
    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # stubbed as IntegerField's
        _refuse_stray_digits(self, value)
        return super().to_python(value)


class DateField(forms.DateField):
    """A date written YYYY-MM-DD (what ``<input type="date">`` sends) in ASCII digits."""

    def to_python(self, value: Any) -> date | None:
        if isinstance(value, str) and value.strip():
            try:
                return parse_date(value.strip(), str(self.label or "date"))
            except NumberRefused as error:
                raise forms.ValidationError(str(error), code="invalid") from error
        return super().to_python(value)
