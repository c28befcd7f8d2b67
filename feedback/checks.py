"""System checks of the feedback app's settings (run by `manage.py check` and at start)."""

from django.conf import settings
from django.core.checks import Error, register

from feedback.ratelimit import parse_rate


@register()
def check_feedback_rate_limit(app_configs, **kwargs):
    try:
        parse_rate(settings.FEEDBACK_RATE_LIMIT)
    except ValueError as error:
        return [Error(str(error), hint="Set FEEDBACK_RATE_LIMIT like 300/m.", id="feedback.E001")]
    return []
