from django import template
from django.utils.safestring import mark_safe

from foundation.diff import with_section_anchors
from foundation.models import NewsPost

register = template.Library()


@register.inclusion_tag("foundation/includes/latest_news.html")
def latest_news(count=3):
    return {"posts": list(NewsPost.objects.published()[:count])}


@register.filter
def section_anchors(html):
    """Rendered (sanitised) HTML with an id on each heading, for the comments' links."""
    return mark_safe(with_section_anchors(str(html)))  # noqa: S308 - only adds slug ids
