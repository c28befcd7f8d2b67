"""MariaDB version strings: validation and ordering by meaning (10.0.10 after 10.0.9)."""

import re

from django.core.exceptions import ValidationError

# Unanchored patterns, shared by the URL converters, the OpenAPI schema and validation.
SERIES_PATTERN = r"[0-9]{1,3}\.(?:[0-9]{1,3}|rolling|rc)"
RELEASE_PATTERN = r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,4}"
SERIES_OR_RELEASE_PATTERN = r"[0-9]{1,3}\.(?:[0-9]{1,3}(?:\.[0-9]{1,4})?|rolling|rc)"

RELEASE_VERSION = re.compile(
    r"^(?P<major>[0-9]{1,3})\.(?P<minor>[0-9]{1,3})\.(?P<patch>[0-9]{1,4})$"
)
SERIES_VERSION = re.compile(f"^{SERIES_PATTERN}$")


def parse_release_version(version: str) -> tuple[int, int, int]:
    match = RELEASE_VERSION.match(version or "")
    if not match:
        raise ValidationError(f"{version!r} is not a release version like 10.11.9")
    return int(match["major"]), int(match["minor"]), int(match["patch"])


def validate_release_version(version: str) -> None:
    parse_release_version(version)


def validate_series_version(version: str) -> None:
    if not SERIES_VERSION.match(version or ""):
        raise ValidationError(f"{version!r} is not a series like 10.11, 11.rolling or 12.rc")


def series_sort_key(version: str) -> tuple[int, int]:
    major, _, minor = version.partition(".")
    return (int(major) if major.isdigit() else -1, int(minor) if minor.isdigit() else 999)
