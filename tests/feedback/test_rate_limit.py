"""The report endpoint's rate limit: django-ratelimit's rule (per client address, an IPv6
address by its /64, a fixed window of FEEDBACK_RATE_LIMIT's period, failing open), counted
in one Redis round trip (core.cache.count). tests/feedback/test_endpoint.py covers the
429, the hashed key and Redis being down."""

import time

import pytest
import redis
import time_machine
from django.core.cache import caches
from django.test import RequestFactory, override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from core import cache
from feedback.views import too_many_reports

pytestmark = pytest.mark.django_db


def posts_from(address: str, times: int) -> list[bool]:
    request = RequestFactory().post("/rest/v1/post", REMOTE_ADDR=address)
    return [too_many_reports(request) for _ in range(times)]


@pytest.fixture(autouse=True)
def three_a_minute(settings):
    settings.FEEDBACK_RATE_LIMIT = "3/m"


def test_an_ipv6_host_is_limited_by_its_slash_64():
    assert posts_from("2001:db8:1:2::1", 3) == [False] * 3
    assert posts_from("2001:db8:1:2:ffff::9", 1) == [True]  # the same /64
    assert posts_from("2001:db8:1:3::1", 1) == [False]  # the next /64


def test_the_count_starts_again_with_the_next_window():
    start = (int(time.time()) // 60 + 1) * 60  # the start of a window
    with time_machine.travel(start, tick=False):
        assert posts_from("198.51.100.40", 4) == [False, False, False, True]
    with time_machine.travel(start + 59, tick=False):
        assert posts_from("198.51.100.40", 1) == [True]
    with time_machine.travel(start + 60, tick=False):
        assert posts_from("198.51.100.40", 1) == [False]


def test_an_address_that_is_not_one_is_counted_as_it_is():
    assert posts_from("", 4) == [False, False, False, True]  # e.g. a Unix socket's


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=20), st.ip_addresses(v=4))
def test_the_first_posts_up_to_the_limit_pass_and_the_rest_do_not(extra, address):
    caches["default"].clear()
    with override_settings(FEEDBACK_RATE_LIMIT="5/h"):
        assert posts_from(str(address), 5 + extra) == [False] * 5 + [True] * extra


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
def test_the_counter_counts_in_a_cache_that_is_not_redis():
    assert [cache.count("rl:test", 60) for _ in range(3)] == [1, 2, 3]


def test_the_counter_lives_as_long_as_its_window(settings):
    assert [cache.count("rl:lives", 60) for _ in range(2)] == [1, 2]
    client = redis.Redis.from_url(settings.REDIS_URL)
    (key,) = client.keys("*rl:lives")
    assert 0 < client.ttl(key) <= 60
