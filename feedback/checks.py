"""System checks of the feedback app's settings (run by `manage.py check` and at start)."""

import re

from django.conf import settings
from django.core.checks import Error, register

# The rates django-ratelimit reads: "300/m", "10/5m" (count / optional multiple, unit).
RATE_RE = re.compile(r"(\d+)/(\d*)([smhd])")
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"300/m"`` -> (300, 60); ``"10/5m"`` -> (10, 300); ValueError for anything else."""
    match = RATE_RE.fullmatch(rate)
    if match is None:
        raise ValueError(f"not a rate: {rate!r} (like 300/m or 10/5m)")
    count, multiple, unit = match.groups()
    return int(count), int(multiple or 1) * SECONDS[unit]


@register()
def check_feedback_rate_limit(app_configs, **kwargs):
    try:
        parse_rate(settings.FEEDBACK_RATE_LIMIT)
    except ValueError as error:
        return [Error(str(error), hint="Set FEEDBACK_RATE_LIMIT like 300/m.", id="feedback.E001")]
    return []
