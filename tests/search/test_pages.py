"""The search form in every header, the OpenSearch description and the 404 page."""

import xml.etree.ElementTree as ET

import pytest
from django.core.management import call_command
from django.test import Client

from releases.models import Series
from search.models import SearchDocument
from search.sources import PAGES
from search.templatetags.search import path_words
from tests.foundation.factories import NewsPostFactory
from tests.releases.factories import SeriesFactory

pytestmark = pytest.mark.django_db
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"


def test_every_page_has_the_header_search_form_and_the_opensearch_link(client):
    for path in ["/", "/news/", "/download/"]:
        response = client.get(path)
        assert response.status_code == 200
        page = response.content.decode()
        assert '<form class="site-search" role="search" aria-label="Site" action="/search/"' in page
        assert '<label for="site-search-q" class="visually-hidden">Search the site</label>' in page
        assert '<input type="search" id="site-search-q" name="q"' in page
        assert (
            '<link rel="search" type="application/opensearchdescription+xml" '
            'title="MariaDB Foundation" href="/opensearch.xml">'
        ) in page


def test_the_opensearch_description_is_valid_and_absolute(client, settings):
    settings.SITE_URL = "https://mariadb.example/"
    response = client.get("/opensearch.xml")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/opensearchdescription+xml; charset=utf-8"
    root = ET.fromstring(response.content)  # noqa: S314 - the site's own response
    assert root.tag == f"{OPENSEARCH}OpenSearchDescription"
    assert 0 < len(root.find(f"{OPENSEARCH}ShortName").text) <= 16
    urls = {url.get("type"): url.get("template") for url in root.iter(f"{OPENSEARCH}Url")}
    assert urls["text/html"] == "https://mariadb.example/search/?q={searchTerms}"
    assert urls["application/opensearchdescription+xml"] == "https://mariadb.example/opensearch.xml"
    assert root.find(f"{OPENSEARCH}Image").text.startswith("https://mariadb.example/static/")


def test_the_404_page_offers_a_search_for_the_words_of_the_missing_address(client):
    response = client.get("/news/mariadb-galera-cluster-10.1/old.html")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'action="/search/"' in page and 'role="search"' in page
    assert (
        '<input type="search" id="not-found-q" name="q" value="news mariadb galera cluster old" '
        'maxlength="200">'
    ) in page
    assert '<a href="/">Go to the home page</a>' in page


@pytest.mark.parametrize(
    "path, words",
    [
        ("/news/mariadb-11-4-released/", "news mariadb released"),
        ("/about/governance/bylaws/v99/", "about governance bylaws"),
        ("/index.php?x=1", ""),
        ("/%3Cscript%3Ealert(1)%3C/script%3E", "script alert"),
        ("/a/b/c", ""),
        ("/one/two/three/four/five/six/seven/eight", "one two three four five six"),
    ],
)
def test_path_words(path, words):
    assert path_words(path) == words


def test_the_404_prefill_is_escaped(client):
    response = client.get('/"><script>alert(1)</script>/')
    assert response.status_code == 404
    assert b"<script>alert" not in response.content


def test_rebuild_search_index_reports_progress_and_catches_bulk_changes(capsys):
    SeriesFactory(version="11.4", description="")
    NewsPostFactory(title="Indexed through the signal")
    Series.objects.update(description="Tamarind")  # no signal: the index misses it
    assert not SearchDocument.objects.filter(body__contains="Tamarind").exists()
    call_command("rebuild_search_index")
    out = capsys.readouterr().out
    assert "series: 1 entries" in out and "news: 1 entries" in out
    # The two rows, and the fixed pages the sitemap lists (search.sources.PAGES).
    assert f"page: {len(PAGES)} entries" in out
    assert f"Search index rebuilt: {2 + len(PAGES)} entries." in out
    assert SearchDocument.objects.filter(kind="series", body="Tamarind").exists()
    assert Client().get("/search/?q=tamarind").content.count(b'class="search-result"') == 1
