"""Site search on PostgreSQL: ranking, snippets, filters, pages and hostile input."""

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from benchmarks.models import Run
from foundation.models import DocumentVersion, NewsPost
from search.query import MAX_QUERY_LENGTH, RESULTS_PER_PAGE
from search.query import search as run_search
from tests.benchmarks.factories import RunFactory, SuiteFactory
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory
from tests.releases.factories import ReleaseFactory, SeriesFactory
from tests.search.factories import BoardMeetingFactory, BoardSeatFactory

pytestmark = pytest.mark.django_db

RESULT_TITLES = re.compile(r'class="search-result-title"><a href="([^"]*)">')


def result_urls(response):
    return RESULT_TITLES.findall(response.content.decode())


def search(client, query="", **params):
    return client.get("/search/", {"q": query, **params})


def test_a_benchmark_is_dated_by_when_it_was_measured_not_when_it_was_stored(client):
    suite = SuiteFactory(title="Spider engine benchmark", is_published=True)
    page = search(client, "spider").content.decode()
    assert "<time" not in page  # no run, no date: not the day the row was written
    RunFactory(suite=suite, run_date=date(2013, 6, 11))
    RunFactory(suite=suite, run_date=date(2014, 2, 3), status=Run.Status.DRAFT)
    page = search(client, "spider").content.decode()
    assert '<time datetime="2013-06-11">11 June 2013</time>' in page


def test_a_title_match_ranks_above_a_body_only_match_even_when_older(client):
    body_only = NewsPostFactory(
        title="Quarterly update",
        body="We also looked at Galera in passing.",
        published_at=timezone.now() - timedelta(days=1),
    )
    in_title = NewsPostFactory(
        title="Galera cluster explained",
        body="How the replication works.",
        published_at=timezone.now() - timedelta(days=4 * 365),
    )
    assert result_urls(search(client, "galera")) == [
        in_title.get_absolute_url(),
        body_only.get_absolute_url(),
    ]


def test_a_summary_match_ranks_above_a_body_match(client):
    body = NewsPostFactory(title="One", summary="Nothing here.", body="Columnstore tuning notes.")
    summary = NewsPostFactory(title="Two", summary="About Columnstore.", body="Other words.")
    assert result_urls(search(client, "columnstore")) == [
        summary.get_absolute_url(),
        body.get_absolute_url(),
    ]


def test_words_match_their_other_forms(client):
    post = NewsPostFactory(title="Replicating across regions", body="Text.")
    assert result_urls(search(client, "replication")) == [post.get_absolute_url()]


def test_snippets_mark_the_match_and_escape_the_content(client):
    NewsPostFactory(
        title="<b>Galera</b> & friends",
        summary='<script>alert("x")</script> Galera <img src=x onerror=alert(1)>',
        body="Plain words.",
    )
    response = search(client, "galera")
    page = response.content.decode()
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>Galera" not in page
    # ts_headline's parser drops some tag-like text; whatever it keeps comes out escaped.
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    snippet = re.search(r'<p class="search-snippet">(.*?)</p>', page).group(1)
    assert re.findall(r"<(/?\w+)", snippet) == ["mark", "/mark"]
    assert "<mark>Galera</mark>" in snippet
    assert "&lt;b&gt;<mark>Galera</mark>&lt;/b&gt; &amp; friends</a>" in page


def test_markdown_is_indexed_as_its_words(client):
    NewsPostFactory(
        title="Notes", body="## Heading\n\n* **bold** item with [a link](https://x.org)"
    )
    response = search(client, "bold link")
    snippet = re.search(r'<p class="search-snippet">(.*?)</p>', response.content.decode()).group(1)
    assert "**" not in snippet and "https://x.org" not in snippet and "##" not in snippet
    assert "<mark>bold</mark> item with a <mark>link</mark>" in snippet


def test_every_kind_of_public_object_is_found(client):
    NewsPostFactory(title="Zebrafish news")
    DocumentVersionFactory(body="The zebrafish clause.")
    BoardSeatFactory(person__name="Zebrafish Keeper", person__slug="zebra")
    BoardMeetingFactory(minutes="We discussed zebrafish.")
    SeriesFactory(version="11.4", description="The zebrafish series.")
    ReleaseFactory(version="11.4.77", release_notes="Fixes for zebrafish.")
    SuiteFactory(title="Zebrafish throughput", is_published=True)
    response = search(client, "zebrafish")
    labels = re.findall(r'kind=(\w+)">', response.content.decode())
    assert sorted(labels) == sorted(
        ["news", "document", "board", "meeting", "series", "release", "benchmark"]
    )
    assert len(result_urls(response)) == 7
    assert "/about/board/" in result_urls(response)
    assert "/download/11.4/11.4.77/" in result_urls(response)


def test_the_kind_filter_narrows_results_and_facets_count_them(client):
    NewsPostFactory(title="Spider engine news")
    NewsPostFactory(title="More spider news")
    suite = SuiteFactory(title="Spider engine benchmark", is_published=True)
    response = search(client, "spider")
    assert len(result_urls(response)) == 3
    page = response.content.decode()
    assert re.search(r'kind=news">News <span class="facet-count">2</span>', page)
    assert re.search(r'kind=benchmark">Benchmarks <span class="facet-count">1</span>', page)
    narrowed = search(client, "spider", kind="benchmark")
    assert result_urls(narrowed) == [suite.get_absolute_url()]
    assert 'kind=benchmark" aria-current="page"' in narrowed.content.decode()
    # An unknown kind is no filter at all.
    assert len(result_urls(search(client, "spider", kind="bogus"))) == 3


def test_results_come_in_pages_that_keep_the_query(client):
    for number in range(RESULTS_PER_PAGE + 2):
        NewsPostFactory(title=f"Aria storage engine {number}")
    first = search(client, "aria")
    assert len(result_urls(first)) == RESULTS_PER_PAGE
    assert 'href="?q=aria&amp;page=2" rel="next"' in first.content.decode()
    second = search(client, "aria", page=2)
    assert len(result_urls(second)) == 2
    assert not set(result_urls(first)) & set(result_urls(second))
    assert search(client, "aria", page="999").status_code == 200
    # a page that is not a number is a 400 naming it (core.numbers), never page 1 again
    assert search(client, "aria", page="x").status_code == 400


def test_the_empty_page_explains_what_can_be_searched(client):
    response = search(client)
    assert response.status_code == 200
    assert b"Search the news, the governance documents" in response.content
    assert b"search-result" not in response.content.replace(b"search-results", b"")


def test_no_results_says_so_and_suggests_what_to_do(client):
    NewsPostFactory(title="Something else")
    response = search(client, "xylophone")
    assert response.status_code == 200
    assert "No results for “xylophone”." in response.content.decode()
    assert b"Check the spelling" in response.content


def test_a_too_long_query_gets_a_clear_message_not_an_error(client):
    response = search(client, "a" * (MAX_QUERY_LENGTH + 1))
    assert response.status_code == 400
    assert b"A search may have at most 200 characters" in response.content
    assert search(client, "a " * (MAX_QUERY_LENGTH // 2)).status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        "!",
        "&|!()",
        ":*",
        "foo:* & bar",
        '"unclosed phrase',
        '""',
        "-",
        "- - -",
        "or or or",
        "a <-> b",
        "'; DROP TABLE search_searchdocument; --",
        "\\",
        "%_%",
        "\u200b\u202e",
        "x" * MAX_QUERY_LENGTH,
        "the and of",
    ],
)
def test_odd_query_syntax_never_fails(client, query):
    NewsPostFactory(title="A post about replication")
    response = search(client, query)
    assert response.status_code == 200


def test_the_index_follows_publishing_unpublishing_and_deleting(client):
    post = NewsPostFactory(title="Vectorised scans", status=NewsPost.Status.DRAFT)
    assert result_urls(search(client, "vectorised")) == []
    post.status = NewsPost.Status.PUBLISHED
    post.save()
    assert result_urls(search(client, "vectorised")) == [post.get_absolute_url()]
    post.title = "Columnar scans"
    post.save()
    assert result_urls(search(client, "vectorised")) == []
    assert result_urls(search(client, "columnar")) == [post.get_absolute_url()]
    post.status = NewsPost.Status.DRAFT
    post.save()
    assert result_urls(search(client, "columnar")) == []
    post.status = NewsPost.Status.PUBLISHED
    post.save()
    post.delete()
    assert result_urls(search(client, "columnar")) == []


def test_a_scheduled_post_is_found_only_from_its_time(client):
    soon = timezone.now() + timedelta(hours=2)
    NewsPostFactory(title="Upcoming conference", published_at=soon)
    assert result_urls(search(client, "conference")) == []
    later = run_search("conference", now=soon + timedelta(minutes=1))
    assert [hit.title_html for hit in later.page.object_list] == [
        "Upcoming <mark>conference</mark>"
    ]


def test_unpublished_releases_and_suites_and_draft_documents_stay_out(client):
    release = ReleaseFactory(version="11.4.66", release_notes="Quasar fix.", is_published=False)
    suite = SuiteFactory(title="Quasar load", is_published=False)
    version = DocumentVersionFactory(body="Quasar clause.", status=DocumentVersion.Status.DRAFT)
    assert result_urls(search(client, "quasar")) == []
    release.is_published = True
    release.save()
    suite.is_published = True
    suite.save()
    version.status = DocumentVersion.Status.DISCUSSION
    version.save()
    assert sorted(result_urls(search(client, "quasar"))) == sorted(
        [release.get_absolute_url(), suite.get_absolute_url(), "/about/governance/bylaws/"]
    )
    version.delete()
    assert "/about/governance/bylaws/" not in result_urls(search(client, "quasar"))


def test_a_search_page_takes_a_bounded_number_of_queries(client, django_assert_max_num_queries):
    for number in range(30):
        NewsPostFactory(title=f"Optimizer trace {number}", body="optimizer " * 50)
    with django_assert_max_num_queries(4):
        response = search(client, "optimizer", page=2)
    assert len(result_urls(response)) == RESULTS_PER_PAGE


def test_a_new_article_shows_in_shared_search_results_right_away():
    first = Client().get("/search/?q=federated")
    assert result_urls(first) == [] and "public" in first["Cache-Control"]
    post = NewsPostFactory(title="Federated tables")
    assert result_urls(Client().get("/search/?q=federated")) == [post.get_absolute_url()]
