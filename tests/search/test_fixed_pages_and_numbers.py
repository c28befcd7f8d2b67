"""Search finds the fixed pages (donate, funding, download, …) by their words, and a
series or release comes first for its own number, on PostgreSQL and on the fallback."""

import html
import re
from datetime import date, timedelta

import pytest
from django.contrib.sitemaps import Sitemap
from django.utils import timezone

from core import sitemaps
from core.sitemaps import NamedPagesSitemap
from search import services
from search.models import SearchDocument
from search.sources import MONEY_WORDS, PAGES
from tests.foundation.factories import NewsPostFactory
from tests.releases.factories import ReleaseFactory, SeriesFactory
from tests.search.test_search import result_urls

pytestmark = pytest.mark.django_db


def test_every_fixed_page_the_sitemap_lists_has_a_search_entry():
    listed = {
        name
        for section in sitemaps.sections().values()
        if isinstance(section, NamedPagesSitemap) and isinstance(section, Sitemap)
        for name in section.items()
    }
    assert listed == set(PAGES)


SEARCHES = {
    "donate": "/donate/",
    "donation": "/donate/",
    "funding": "/funding/",
    "download": "/download/",
    "verify": "/download/",
    "checksum": "/download/",
    "repo configuration": "/download/repo-config/",
    "sponsors": "/sponsors/",
    "supporters": "/supporters/",
    "contact": "/contact/",
    "usage statistics": "/feedback/",
    "feedback": "/feedback/",
    "benchmarks": "/benchmarks/",
    "bylaws": "/about/governance/",
}


@pytest.mark.parametrize(("words", "url"), SEARCHES.items())
def test_a_fixed_page_is_found_by_its_words(client, words, url):
    services.rebuild()
    found = result_urls(client.get("/search/", {"q": words}))
    assert url in found, f"{words!r} found {found}"


def test_the_pages_entries_follow_their_descriptions_and_count_in_the_facets(client):
    SearchDocument.objects.filter(kind="page").delete()
    assert services.sync_pages() == len(PAGES)
    page = client.get("/search/", {"q": "donate"}).content.decode()
    assert ": support MariaDB with a gift</a>" in page
    assert 'href="?q=donate&amp;kind=page">Pages <span class="facet-count">' in page


def test_every_word_for_money_finds_donate_sponsors_and_funding(client):
    """Issue 49: "donate" found neither /funding/ nor /sponsors/."""
    services.rebuild()
    for word in MONEY_WORDS.split():
        found = result_urls(client.get("/search/", {"q": word}))
        assert {"/donate/", "/sponsors/", "/funding/"} <= set(found), f"{word!r} found {found}"


RESULT = re.compile(
    r'class="search-result-title"><a href="([^"]*)">.*?</h2>\s*<p class="search-snippet">(.*?)</p>',
    re.S,
)


def test_a_page_shows_its_own_description_never_its_search_words(client):
    """Issue 49: the Donate page's description read "donate donation donations gift give
    money…", the words it is searched by."""
    services.rebuild()
    for words in ("donate", "money", "give", "sponsorship", "funding"):
        page = client.get("/search/", {"q": words}).content.decode()
        shown = {
            url: html.unescape(re.sub(r"<[^>]+>", "", snippet))
            for url, snippet in RESULT.findall(page)
        }
        assert set(shown) >= {"/donate/", "/sponsors/", "/funding/"}, words
        for snippet in shown.values():
            assert "donation donations" not in snippet and "contribute contribution" not in snippet
        assert shown["/donate/"] == PAGES["donations:donate"].summary, words
        assert shown["/funding/"] == PAGES["donations:funding"].summary, words


@pytest.fixture
def talk_of_11_8():
    """A series, its releases and news that say "11.8" far more often than the series'
    own entry does, and are newer."""
    series = SeriesFactory(version="11.8", first_release_date=date(2025, 6, 4))
    for patch in (2, 8, 9):
        ReleaseFactory(series=series, version=f"11.8.{patch}",
                       release_date=date(2025, 6, 4) + timedelta(days=30 * patch),
                       release_notes=f"MariaDB 11.8.{patch} fixes bugs in 11.8. " * 3)  # fmt: skip
    for n in range(11):
        NewsPostFactory(
            title=f"MariaDB 11.8 and 11.8.9: part {n}",
            summary="What 11.8 brings, and what 11.8.9 fixes.",
            body="11.8 " * 20 + "11.8.9 " * 20,
            published_at=timezone.now() - timedelta(days=n),
        )


def test_a_series_number_finds_the_series_first(client, talk_of_11_8):
    for words in ("11.8", "MariaDB 11.8"):
        assert result_urls(client.get("/search/", {"q": words}))[0] == "/download/11.8/"


def test_a_release_number_finds_the_release_first(client, talk_of_11_8):
    assert result_urls(client.get("/search/", {"q": "11.8.9"}))[0] == "/download/11.8/11.8.9/"
