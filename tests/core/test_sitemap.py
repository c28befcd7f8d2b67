"""/sitemap.xml covers every public section, and every URL it lists answers."""

import re
from urllib.parse import urlsplit

import pytest

from foundation.models import BoardMeeting
from tests.benchmarks.factories import SuiteFactory
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def content():
    series = SeriesFactory(version="11.4")
    return {
        "series": series,
        "release": ReleaseFactory(series=series, version="11.4.5", is_published=True),
        "draft release": ReleaseFactory(series=series, version="11.4.6", is_published=False),
        "suite": SuiteFactory(slug="sysbench-oltp"),
        "draft suite": SuiteFactory(slug="secret-suite", is_published=False),
        "post": NewsPostFactory(slug="hello"),
        "document": DocumentVersionFactory().document,
        "meeting": BoardMeeting.objects.create(date="2024-03-01", is_published=True),
    }


def sitemap_paths(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    return [urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", response.text)]


def test_the_sitemap_lists_a_page_of_every_public_section(client, content):
    paths = set(sitemap_paths(client))
    expected = {
        "/", "/accessibility/", "/about/", "/about/board/", "/about/staff/",
        "/about/governance/", "/about/governance/bylaws/", "/about/meetings/",
        f"/about/meetings/{content['meeting'].pk}/", "/news/", "/news/hello/", "/contact/",
        "/download/", "/download/series/", "/download/11.4/", "/download/11.4/11.4.5/",
        "/download/repo-config/", "/feedback/", "/feedback/privacy/",
        "/benchmarks/", "/benchmarks/sysbench-oltp/",
        "/sponsors/", "/supporters/", "/donate/", "/funding/",
    }  # fmt: skip
    assert expected <= paths, sorted(expected - paths)
    assert "/download/11.4/11.4.6/" not in paths
    assert "/benchmarks/secret-suite/" not in paths


def test_every_url_of_the_sitemap_answers(client, content):
    paths = sitemap_paths(client)
    assert len(paths) == len(set(paths)) >= 25
    failures = [(path, code) for path in paths if (code := client.get(path).status_code) != 200]
    assert failures == []
