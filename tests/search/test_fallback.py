"""The SQLite fallback (substring search) and the snippet helpers, run for real: the
fallback's queries are plain ORM filters, so they run on PostgreSQL too."""

import re

import pytest

from search import models as search_models
from search.query import query_terms
from search.snippets import excerpt, mark_words, marked_to_html
from tests.foundation.factories import NewsPostFactory

pytestmark = pytest.mark.django_db
RESULT_TITLES = re.compile(r'class="search-result-title"><a href="([^"]*)">(.*?)</a>')


@pytest.fixture
def fallback(monkeypatch):
    monkeypatch.setattr(search_models, "uses_full_text", lambda: False)
    for module in ("search.query", "search.services"):
        monkeypatch.setattr(f"{module}.uses_full_text", lambda: False)


def test_fallback_puts_title_matches_first_and_escapes_snippets(client, fallback):
    body_only = NewsPostFactory(
        title="Release notes", summary="", body="Some <b>InnoDB</b> & things about innodb."
    )
    in_title = NewsPostFactory(title="InnoDB internals", body="Pages and buffers.")
    response = client.get("/search/", {"q": "innodb"})
    assert response.status_code == 200
    found = RESULT_TITLES.findall(response.content.decode())
    assert found == [
        (in_title.get_absolute_url(), "<mark>InnoDB</mark> internals"),
        (body_only.get_absolute_url(), "Release notes"),
    ]
    page = response.content.decode()
    assert "Some <mark>InnoDB</mark> &amp; things about <mark>innodb</mark>." in page
    assert "<b>" not in page


def test_fallback_needs_every_word_and_honours_exclusions(client, fallback):
    both = NewsPostFactory(title="Spider and Aria", body="")
    NewsPostFactory(title="Spider only", body="")
    NewsPostFactory(title="Spider with Aria and Connect", body="")
    response = client.get("/search/", {"q": "spider aria -connect"})
    assert [url for url, _ in RESULT_TITLES.findall(response.content.decode())] == [
        both.get_absolute_url()
    ]


@pytest.mark.parametrize("query", ['"', "-", "or", '- "" or', "%", "_", "\\", "a" * 200])
def test_fallback_odd_queries_never_fail(client, fallback, query):
    NewsPostFactory(title="100% sure_thing")
    assert client.get("/search/", {"q": query}).status_code == 200


def test_fallback_treats_percent_and_underscore_literally(client, fallback):
    NewsPostFactory(title="100% sure", body="")
    NewsPostFactory(title="100 percent", body="")
    found = RESULT_TITLES.findall(client.get("/search/", {"q": "100%"}).content.decode())
    assert len(found) == 1 and found[0][1] == "<mark>100%</mark> sure"


def test_query_terms_reads_phrases_exclusions_and_or():
    assert query_terms('galera "group commit" or -cluster') == (
        ["galera", "group commit"],
        ["cluster"],
    )


def test_marked_to_html_allows_only_the_mark_it_adds():
    html = marked_to_html('\x02<script>\x03 & "x" \x02dangling')
    assert html == "<mark>&lt;script&gt;</mark> &amp; &quot;x&quot; dangling"


def test_excerpt_cuts_on_words_around_the_first_match():
    text = ("filler " * 60) + "the needle is here " + ("after " * 60)
    snippet = excerpt(text, ["needle"], length=80)
    assert snippet.startswith("… filler") and snippet.endswith("after …")
    assert "\x02needle\x03" in snippet
    assert len(snippet) < 100
    assert mark_words("a Needle b", ["needle"]) == "a \x02Needle\x03 b"
