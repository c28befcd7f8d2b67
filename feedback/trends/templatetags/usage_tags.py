"""Usage figures shown on other apps' pages, so those apps never import the feedback app."""

from django import template
from django.utils import timezone

from feedback.trends.series_usage import series_usage as usage_of_series

register = template.Library()


@register.inclusion_tag("trends/includes/series_usage.html")
def series_usage(series):
    """Who runs a release series and how fast its releases were picked up."""
    releases = series.releases.published().ga()
    return {
        "series": series,
        "usage": usage_of_series(series.version, releases, timezone.localdate()),
    }
