from django import template

from foundation.models import NewsPost

register = template.Library()


@register.inclusion_tag("foundation/includes/latest_news.html")
def latest_news(count=3):
    return {"posts": list(NewsPost.objects.published()[:count])}
