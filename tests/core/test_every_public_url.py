"""Every public URL is built with at most 10 queries: each page /sitemap.xml lists, and
the feeds and API roots it does not (tests/public_urls.py), on the demo content, asked by
an anonymous visitor with the cache emptied before each (the lookups core.pagecache
keeps, too), so each answer is really built. Times are not asserted (a loaded machine
must not fail a test): bench/page_build.py measures them (docs/PERFORMANCE.md)."""

import pytest
from django.core.cache import cache
from django.db import connection, reset_queries
from django.test.utils import CaptureQueriesContext

from core import pagecache
from tests.public_urls import FEEDS_AND_API_ROOTS, public_paths

pytestmark = pytest.mark.django_db
MAX_QUERIES = 10


@pytest.fixture(scope="module")
def demo(demo_database):
    with demo_database.in_use():
        yield


def built_uncached(client, path):
    cache.clear()
    pagecache.content_changed()
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return response, queries


def test_every_public_url_answers_with_at_most_10_queries(demo, client):
    paths = public_paths(client)
    assert len(paths) >= 500  # the demo's every release, advisory and post is listed
    assert set(FEEDS_AND_API_ROOTS) <= set(paths)
    failures = []
    for path in paths:
        response, queries = built_uncached(client, path)
        if response.status_code != 200:
            failures.append(f"{path}: {response.status_code}")
        elif len(queries) > MAX_QUERIES:
            failures.append(f"{path}: {len(queries)} queries")
    assert failures == [], "\n".join(failures)


def test_the_count_sees_the_queries_of_a_page(demo, client):
    """The bound above means something: a built page is counted, a kept one is not."""
    response, queries = built_uncached(client, "/download/")
    assert response.status_code == 200 and len(queries) >= 2
