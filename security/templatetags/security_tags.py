"""What the advisories say, shown on the release pages, so releases never import security."""

from django import template
from django.urls import reverse
from django.utils import timezone

from security.models import AffectedRange
from security.queries import affecting, fixed_by, open_in_series, release_key, upgrade_target

register = template.Library()


@register.inclusion_tag("security/includes/release_advisories.html")
def release_advisories(release):
    """Which advisories a release fixes, which still affect it, and what to upgrade to."""
    still = affecting(release.series.version, release_key(release))
    return {
        "release": release,
        "fixed": fixed_by(release),
        "affecting": still,
        "upgrade": upgrade_target(release.series.version, timezone.localdate()) if still else None,
        "eol": release.series.is_eol(timezone.localdate()),
    }


@register.inclusion_tag("security/includes/series_advisories.html")
def series_advisories(series):
    """The advisories that affect the newest release of a series: what is open in it."""
    newest, still = open_in_series(series)
    return {
        "series": series,
        "newest": newest,
        "affecting": still,
        "known": AffectedRange.objects.filter(series=series).exists(),
        "upgrade": upgrade_target(series.version, timezone.localdate()) if still else None,
        "eol": series.is_eol(timezone.localdate()),
    }


@register.inclusion_tag("security/includes/attach_offer.html")
def attach_advisories_offer(release):
    """The publishing review page's offer to record the advisories the release fixes."""
    return {
        "release": release,
        "fixed": fixed_by(release),
        "url": reverse("admin:security_advisory_attach", args=[release.pk]),
    }
