from django import template

from releases.models import Release

register = template.Library()


@register.inclusion_tag("releases/includes/latest_releases.html")
def latest_releases(count=4):
    releases = Release.objects.published().select_related("series")[:count]
    return {"releases": list(releases)}
