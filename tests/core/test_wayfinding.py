"""Way-finding: breadcrumbs on every section's pages, feed autodiscovery links."""

import re

import pytest
from django.test import SimpleTestCase

from foundation.models import BoardMeeting
from tests.benchmarks.factories import SuiteFactory
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db
html = SimpleTestCase()


@pytest.fixture
def content():
    series = SeriesFactory(version="11.4")
    return {
        "release": ReleaseFactory(series=series, version="11.4.5"),
        "suite": SuiteFactory(slug="sysbench-oltp", title="Sysbench OLTP"),
        "post": NewsPostFactory(slug="hello", title="Hello"),
        "document": DocumentVersionFactory().document,
        "meeting": BoardMeeting.objects.create(date="2024-03-01", is_published=True),
    }


def test_a_release_page_has_the_whole_trail(client, content):
    response = client.get("/download/11.4/11.4.5/")
    html.assertContains(
        response,
        """<nav class="container breadcrumbs" aria-label="Breadcrumb"><ol>
        <li><a href="/">Home</a></li><li><a href="/download/">Download</a></li>
        <li><a href="/download/11.4/">MariaDB 11.4</a></li>
        <li><span aria-current="page">11.4.5</span></li></ol></nav>""",
        html=True,
    )


def test_a_benchmark_chart_page_leads_back_through_its_suite(client, content):
    from tests.benchmarks.factories import MeasurementFactory, RunFactory

    MeasurementFactory(run=RunFactory(suite=content["suite"]))
    suite = client.get("/benchmarks/sysbench-oltp/")
    html.assertContains(
        suite,
        """<nav class="container breadcrumbs" aria-label="Breadcrumb"><ol>
        <li><a href="/">Home</a></li><li><a href="/benchmarks/">Benchmarks</a></li>
        <li><span aria-current="page">Sysbench OLTP</span></li></ol></nav>""",
        html=True,
    )


SECTIONS = {
    "/about/": ["Home"],
    "/about/board/": ["Home", "About"],
    "/about/staff/": ["Home", "About"],
    "/about/governance/": ["Home", "About"],
    "/about/governance/bylaws/": ["Home", "About", "Governance"],
    "/about/meetings/": ["Home", "About"],
    "/news/": ["Home"],
    "/news/hello/": ["Home", "News"],
    "/contact/": ["Home"],
    "/sponsors/": ["Home"],
    "/supporters/": ["Home"],
    "/donate/": ["Home"],
    "/funding/": ["Home"],
    "/download/": ["Home"],
    "/download/series/": ["Home", "Download"],
    "/download/11.4/": ["Home", "Download", "All series"],
    "/download/repo-config/": ["Home", "Download"],
    "/feedback/": ["Home"],
    "/feedback/privacy/": ["Home", "Usage statistics"],
    "/benchmarks/": ["Home"],
    "/accessibility/": ["Home"],
}


@pytest.mark.parametrize("path", SECTIONS)
def test_every_section_shows_its_breadcrumbs(client, content, path):
    page = client.get(path).content.decode()
    trail = re.search(
        r'<nav class="container breadcrumbs" aria-label="Breadcrumb">(.*?)</nav>', page, re.S
    )
    assert trail, path
    links = re.findall(r'<li><a href="[^"]+">([^<]+)</a></li>', trail.group(1))
    assert links == SECTIONS[path]
    assert trail.group(1).count('aria-current="page"') == 1
    assert re.search(r'<li><span aria-current="page">[^<]+</span></li>\s*</ol>', trail.group(1))


def test_the_home_page_has_no_breadcrumbs(client, content):
    assert 'aria-label="Breadcrumb"' not in client.get("/").content.decode()


NEWS_FEED = '<link rel="alternate" type="application/atom+xml" title="MariaDB Foundation news" href="/news/feed/">'
SERIES_FEED = '<link rel="alternate" type="application/atom+xml" title="MariaDB 11.4 releases" href="/download/11.4/feed/">'


@pytest.mark.parametrize(
    "path, link",
    [
        ("/", NEWS_FEED),
        ("/news/", NEWS_FEED),
        ("/news/hello/", NEWS_FEED),
        ("/download/", '<link rel="alternate" type="application/atom+xml" title="MariaDB releases" href="/download/feed/">'),
        ("/download/11.4/", SERIES_FEED),
        ("/download/11.4/11.4.5/", SERIES_FEED),
        ("/benchmarks/", '<link rel="alternate" type="application/atom+xml" title="Benchmark changes beyond the noise" href="/benchmarks/regressions.atom">'),
    ],
)  # fmt: skip
def test_pages_announce_their_feeds(client, content, path, link):
    html.assertContains(client.get(path), link, html=True)
    # ...and the feed answers
    href = re.search(r'href="([^"]+)"', link).group(1)
    assert client.get(href).status_code == 200
