"""The supporters page's cache: every change that affects the page deletes it after commit."""

from django.core.cache import cache

from core import edge

SUPPORTERS_CACHE_KEY = "sponsors:supporters-page"


def invalidate_supporters_page():
    cache.delete(SUPPORTERS_CACHE_KEY)
    # Whole pages built between the commit and the line above hold the old list.
    edge.content_changed()
