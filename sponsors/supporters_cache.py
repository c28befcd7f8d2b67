"""The supporters page's cache: every change that affects the page deletes it after commit."""

from django.core.cache import cache
from django.db import transaction

from core import edge

SUPPORTERS_CACHE_KEY = "sponsors:supporters-page"


def invalidate_supporters_page():
    cache.delete(SUPPORTERS_CACHE_KEY)
    # Whole pages built between the commit and the line above hold the old list.
    edge.content_changed()


def money_taken_back(sender, **kwargs):
    """A refund or dispute recorded (``payments.recording``): a sponsorship whose payment
    went back in full leaves the page (connected to their saves in ``SponsorsConfig``)."""
    transaction.on_commit(invalidate_supporters_page)
