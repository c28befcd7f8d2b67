"""What the advisories say, shown on the release pages, so releases never import security."""

from django import template
from django.urls import reverse
from django.utils import timezone

from security.queries import (
    affecting,
    fixed_by,
    newest_version,
    ranges_in,
    release_key,
    span_of,
    upgrade_target,
)
from security.ranges import version_key

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
    """The advisories that affect the newest release of a series: what is open in it. The
    series page's ``latest_version`` (``Series.objects.with_release_facts``) saves a query."""
    ranges = ranges_in(series.version)
    newest = getattr(series, "latest_version", None) or newest_version(series)
    still = [r for r in ranges if newest and span_of(r).includes(version_key(newest))]
    return {
        "series": series,
        "newest": newest,
        "newest_url": reverse(
            "releases:release", kwargs={"series": series.version, "version": newest}
        )
        if newest
        else "",
        "affecting": still,
        "known": bool(ranges),
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
