"""The limits of what the columns hold: the checks every value from an upload or a form
passes before it is stored (bounded text without control characters, finite numbers,
tags nested no deeper than the database takes)."""

import json
import math
from typing import Any

from django.db.models import Field, Model
from django.utils import timezone

from benchmarks.importers import ImportFailed
from benchmarks.models import MAY_BE_UNSTATED, Run, server_version_fields
from core.numbers import NumberRefused

RUN_FIELDS = [
    "hardware",
    "os",
    "server_version",
    "server_build",
    "server_commit",
    "server_config",
    "client",
    "run_date",
    "notes",
    "source",
    "source_url",
    "unstated",
    "order",
]
# Free-text fields (TextField) have no column limit; these bound what a person can review.
TEXT_LIMITS = {"hardware": 2000, "server_config": 10000, "notes": 10000}
# Numbers a parameter or a figure may hold: integers exact in a float, floats finite.
LARGEST_INTEGER = 2**53


def field_limit(model: type[Model], name: str) -> int | None:
    """The most characters a text field holds: its column's, or the review bound above."""
    field = model._meta.get_field(name)
    column = field.max_length if isinstance(field, Field) else None
    return column or TEXT_LIMITS.get(name)


def text_problem(text: str, limit: int | None) -> str | None:
    """Why a text cannot be stored as it is (None when it can)."""
    if limit is not None and len(text) > limit:
        return f"too long: at most {limit} characters, not {len(text)}"
    for character in text:
        if character in "\t\n\r":
            continue
        if ord(character) < 32 or ord(character) == 127 or 0xD800 <= ord(character) <= 0xDFFF:
            return f"has the character U+{ord(character):04X}, which text here may not hold"
    return None


def number_problem(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > LARGEST_INTEGER:
        return f"out of range: numbers up to {LARGEST_INTEGER:,} in size"
    if isinstance(value, float) and not math.isfinite(value):
        return "not a finite number"
    return None


def check_storable(where: str, value: object, depth: int = 0) -> None:
    """Tool metadata (options, versions) as JSON the database holds: finite, bounded
    numbers, text without control characters, nesting at most 20 deep."""
    if depth > 20:
        raise ImportFailed(f"{where}: nested too deeply")
    if isinstance(value, dict):
        for key, item in value.items():
            check_storable(where, str(key), depth + 1)
            check_storable(where, item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            check_storable(where, item, depth + 1)
    elif isinstance(value, str):
        problem = text_problem(value, 10000)
        if problem:
            raise ImportFailed(f"{where}: a text {problem}")
    elif isinstance(value, int | float):
        problem = number_problem(value)
        if problem:
            raise ImportFailed(f"{where}: {problem}")


def check_tags(name: str, value: object) -> dict[str, Any]:
    """``parameters`` and ``variant``: a JSON object of names to numbers, strings or booleans."""
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value or "{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ImportFailed(
                f"{name}: not valid JSON ({getattr(error, 'msg', error)})"
            ) from error
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ImportFailed(
            f'{name}: expected a JSON object such as {{"threads": 64}}, got {type(value).__name__}'
        )
    for key, item in value.items():
        if not isinstance(item, str | int | float | bool):
            raise ImportFailed(
                f"{name}: the value of {key!r} must be a number, a string or true/false, "
                f"not {type(item).__name__}"
            )
        key_problem = text_problem(str(key), 60)
        if key_problem:
            raise ImportFailed(f"{name}: the name {str(key)[:60]!r}: {key_problem}")
        problem = text_problem(item, 200) if isinstance(item, str) else number_problem(item)
        if problem:
            raise ImportFailed(f"{name}: the value of {key!r}: {problem}")
    return value


def check_environment(environment: dict[str, Any]) -> dict[str, Any]:
    """The run's environment and provenance as the columns hold them, the server version
    as the release it names (``models.server_version_fields``); raises ImportFailed naming
    the field."""
    if environment.get("server_version"):
        try:
            environment = {**environment, **server_version_fields(environment["server_version"])}
        except NumberRefused as error:
            raise ImportFailed(str(error)) from error
    for name, value in environment.items():
        if name not in RUN_FIELDS:
            continue
        if name == "unstated":
            if not isinstance(value, list) or any(v not in MAY_BE_UNSTATED for v in value):
                raise ImportFailed(f"unstated: a list of {', '.join(MAY_BE_UNSTATED)}")
        elif name == "run_date":
            if value is not None and value > timezone.localdate():
                raise ImportFailed("run_date: a date in the future cannot have been measured")
        elif isinstance(value, str):
            problem = text_problem(value, field_limit(Run, name))
            if problem:
                raise ImportFailed(f"{name}: {problem}")
    return environment
