"""Every public page is built with a bounded number of queries, signed in or not.

The demo content (every app's) is read from the test process's demo database, where it is
loaded once (tests/shared_data.py); each test's writes are rolled back. The page cache is
cleared before each test, so each first request really builds its page.
"""

import pytest
from django.db.models import Count

from benchmarks.models import Suite
from foundation.models import BoardMeeting, Category, GovernanceDocument, NewsPost, Tag
from releases.models import Release, Series
from releases.repoconfig import services as repoconfig
from security.models import AffectedRange
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
MAX_QUERIES = 12
PAGES_WITH_CSRF_FORMS = {"contact"}


@pytest.fixture(scope="module")
def demo_content(demo_database):
    with demo_database.in_use():
        yield public_paths()


def public_paths():
    post = NewsPost.objects.published().first()
    release = Release.objects.published().select_related("series").by_version().first()
    series = Series.objects.filter(releases__is_published=True).first()
    busiest = (
        AffectedRange.objects.values("series").annotate(n=Count("id")).order_by("-n")[0]["series"]
    )
    exposed = Release.objects.published().filter(series=busiest).select_related("series")
    exposed = exposed.by_version().last()  # its oldest: the most advisories affect it
    suite = Suite.objects.published().filter(runs__isnull=False).distinct().first()
    runs = list(suite.runs.all()[:2])
    document = GovernanceDocument.objects.filter(versions__isnull=False).first()
    meeting = BoardMeeting.objects.filter(is_published=True).first()
    options = repoconfig.options()
    distro = next(d for d in options["distributions"] if d["releases"])
    choice = next(r for r in distro["releases"] if r["versions"])
    selection = (
        f"distro={distro['slug']}&release={choice['key']}"
        f"&version={choice['versions'][0]['version']}&mirror={options['mirrors'][0]['id']}"
    )
    return {
        "home": "/",
        "about": "/about/",
        "board": "/about/board/",
        "staff": "/about/staff/",
        "governance": "/about/governance/",
        "governance document": f"/about/governance/{document.slug}/",
        "meetings": "/about/meetings/",
        "meeting": f"/about/meetings/{meeting.pk}/",
        "news": "/news/",
        "news category": f"/news/category/{Category.objects.first().slug}/",
        "news tag": f"/news/tag/{Tag.objects.first().slug}/",
        "news post": post.get_absolute_url(),
        "news feed": "/news/feed/",
        "contact": "/contact/",
        "supporters": "/supporters/",
        "sponsor programmes": "/sponsors/",
        "download": "/download/",
        "series": f"/download/{series.version}/",
        "release": f"/download/{release.series.version}/{release.version}/",
        "release many advisories affect": exposed.get_absolute_url(),
        "release feed": "/download/feed/",
        "repo-config": "/download/repo-config/",
        "repo-config with a selection": f"/download/repo-config/?{selection}",
        "usage statistics": "/feedback/",
        "usage statistics by week": "/feedback/?period=week",
        "usage privacy": "/feedback/privacy/",
        "benchmarks": "/benchmarks/",
        "suite": f"/benchmarks/{suite.slug}/",
        "run": f"/benchmarks/{suite.slug}/runs/{runs[0].pk}/",
        "compare": f"/benchmarks/{suite.slug}/compare/?a={runs[0].pk}&b={runs[-1].pk}",
        "accessibility": "/accessibility/",
        "sitemap": "/sitemap.xml",
        "search": "/search/?q=mariadb+release",
        "search in one kind": "/search/?q=mariadb&kind=release&page=2",
        "opensearch": "/opensearch.xml",
    }


PAGE_NAMES = [
    "home", "about", "board", "staff", "governance", "governance document", "meetings",
    "meeting", "news", "news category", "news tag", "news post", "news feed",
    "contact", "supporters", "sponsor programmes", "download", "series", "release",
    "release many advisories affect", "release feed", "repo-config", "repo-config with a selection", "usage statistics",
    "usage statistics by week", "usage privacy", "benchmarks", "suite", "run", "compare",
    "accessibility", "sitemap", "search", "search in one kind", "opensearch",
]  # fmt: skip


@pytest.mark.parametrize("name", PAGE_NAMES)
@pytest.mark.parametrize("visitor", ["anonymous", "signed in"])
def test_public_page_query_count_is_bounded(
    demo_content, name, visitor, client, django_assert_max_num_queries
):
    if visitor == "signed in":
        client.force_login(UserFactory(email="member@example.org"))
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(demo_content[name])
    assert response.status_code == 200, demo_content[name]
    if visitor == "anonymous" and name not in PAGES_WITH_CSRF_FORMS:
        assert not response.cookies, f"{name} sets {list(response.cookies)}"


def test_the_demo_gives_every_page_real_content(demo_content, client):
    """The bounds above mean something only if the pages show many rows."""
    assert NewsPost.objects.published().count() >= 10
    assert Release.objects.published().count() >= 5
    html = client.get(demo_content["suite"]).content.decode()
    assert "data-benchmark-chart" in html
    exposed = client.get(demo_content["release many advisories affect"]).content.decode()
    assert exposed.count('href="/security/') >= 20  # each advisory linked, with its fix


CHART_LIBRARY = "vendor/chartjs/chart.umd"
PAGES_WITH_CHARTS = {"usage statistics", "usage statistics by week", "suite", "compare"}


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_the_chart_library_is_loaded_only_where_there_are_charts(demo_content, name, client):
    html = client.get(demo_content[name]).content.decode()
    has_chart = "data-chart=" in html or "data-benchmark-chart=" in html
    assert has_chart == (name in PAGES_WITH_CHARTS)
    assert (CHART_LIBRARY in html) == has_chart
