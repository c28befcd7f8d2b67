"""The report rate limit's counts in one process, handed to Redis between posts."""

import threading

from django.conf import settings as django_settings
from django.core.cache import caches

from feedback.ratelimit import WindowCounts

KEY = "rl:feedback-post:test-window:test-address"


def test_posts_counted_by_many_threads_at_once_all_reach_redis(settings):
    settings.FEEDBACK_RATE_LIMIT_SYNC_SECONDS = 0
    counts = WindowCounts()
    alias = django_settings.RATELIMIT_USE_CACHE

    def post_fifty():
        for _ in range(50):
            assert counts.count(KEY, 61, alias) is not None

    threads = [threading.Thread(target=post_fifty) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts.count(KEY, 61, alias) == 401  # hands over what the last posts left
    assert caches[alias].get(KEY) == 401


def test_a_process_knows_its_own_posts_between_hand_overs(settings):
    settings.FEEDBACK_RATE_LIMIT_SYNC_SECONDS = 3600
    counts = WindowCounts()
    alias = django_settings.RATELIMIT_USE_CACHE
    assert [counts.count(KEY, 61, alias) for _ in range(4)] == [1, 2, 3, 4]
    assert caches[alias].get(KEY) == 1  # only the first post found a hand-over due


def test_with_redis_unreachable_the_count_fails_open_and_hands_over_again_later(settings):
    settings.FEEDBACK_RATE_LIMIT_SYNC_SECONDS = 0
    settings.CACHES = {
        **settings.CACHES,
        "unreachable": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"},
    }
    counts = WindowCounts()
    assert counts.count(KEY, 61, "unreachable") is None
    assert not counts.handing  # nothing left stuck in a hand-over
    assert counts.count(KEY, 61, django_settings.RATELIMIT_USE_CACHE) == 1
