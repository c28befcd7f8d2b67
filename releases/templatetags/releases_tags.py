from django import template

from releases.models import Release

register = template.Library()


@register.inclusion_tag("releases/includes/latest_releases.html")
def latest_releases(count=4):
    releases = Release.objects.published().select_related("series")[:count]
    return {"releases": list(releases)}


@register.simple_tag
def signature_url(file, mirror):
    """Where the file's signature is on the mirror (ReleaseFile.signature_url)."""
    return file.signature_url(mirror) or ""
