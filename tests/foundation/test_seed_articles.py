"""The seed articles read as their authors wrote them: headings, lists with their own
numbers, real tables and figure captions (issue #18)."""

import pytest
from django.utils.text import slugify

from foundation import demo
from foundation.models import NewsPost
from foundation.seedtext import to_markdown
from tests.foundation.factories import NewsPostFactory
from tests.foundation.outline import Outline

pytestmark = pytest.mark.django_db


@pytest.fixture
def articles(client):
    demo.load(lambda message: None)

    def outline(title: str) -> Outline:
        response = client.get(f"/news/{slugify(title)[:200]}/")
        assert response.status_code == 200
        return Outline(response.content.decode())

    return outline


def _article_text(outline: Outline) -> str:
    return "".join(outline.text)


def test_leanxcale_keeps_its_numbered_sections_as_headings(articles):
    page = articles("MariaDB vs LeanXcale")
    assert len(page.headings) == 62
    assert page.headings[:3] == [
        "h2:1. Introduction",
        "h3:1.1. Benchmarking Tool",
        "h3:1.2. Method",
    ]
    assert "h4:4.1.1. Single" in page.headings
    assert page.headings[-1] == "h3:14.1. Suitability"
    # section numbers are headings, never list items
    assert not [start for tag, start in page.list_starts if tag == "ol"]


def test_leanxcale_keeps_its_tables_captions_and_figures(articles):
    page = articles("MariaDB vs LeanXcale")
    specs, cost = page.tables
    assert (specs["rows"], specs["cells"]) == (2, 16)  # header and one machine, 8 columns
    assert cost["caption"] == "Table 1. Infrastructure cost (USD/Bopm)"
    assert page.captions[:2] == ["Example 1. Table creation", "READ Throughput"]
    assert page.captions.count("READ_UPDATE Throughput") == 2
    assert len(page.captions) == 15  # 8.2.4 has a chart but no caption


@pytest.mark.parametrize(
    "title",
    [post[1] or (demo.SEEDS / post[0]).read_text().partition("\n")[0] for post in demo.POSTS],
)
def test_no_seed_article_shows_stray_markup(articles, title):
    text = _article_text(articles(title.strip()))
    assert "*" not in text and "\\" not in text and "•" not in text


def test_big_data_keeps_its_tables_and_footnote_numbers(articles):
    page = articles("Optimising MariaDB for Big Data")
    with_dedup, without = page.tables
    assert (with_dedup["rows"], with_dedup["cells"]) == (6, 24)
    assert (without["rows"], without["cells"]) == (4, 12)
    assert ("ol", "") in page.list_starts  # the footnotes 1. 2. 3. as one list from 1
    assert "h2:Configuring RocksDB" in page.headings
    assert len(page.headings) == 9


def test_replication_preview_and_thread_pool_headings(articles):
    assert articles("MariaDB replication feature preview released").headings == [
        "h2:Group commit for the binary log",
        "h2:Annotation of row-based replication events with the original SQL statement",
        "h2:Row-based replication for tables with no primary key",
        "h2:Early release during prepare phase of XtraDB row locks",
        "h2:PBXT consistent commit ordering",
    ]
    page = articles("MariaDB-5.5 Thread Pool Performance")
    assert page.headings == ["h2:OLTP(ro) MariaDB-5.5.21 pool-of-threads vs. thread-per-connection"]
    assert page.list_starts == [("ul", "")]
    # The author's closing section is part of the article (only reader comments are not).
    text = _article_text(page)
    assert "Let me add few more words about binding cpu cores" in text
    assert "one should set thread-pool-size manually to the number of cpu cores" in text
    assert "its fine only" not in text


def test_quarterly_update_keeps_its_nested_list(articles):
    page = articles("Quarterly update from the foundation's board")
    assert page.list_starts == [("ul", ""), ("ul", "")]
    assert page.headings == []


def test_an_ordered_list_keeps_its_first_number():
    html_markdown = to_markdown("Steps:\n\n  3. third\n  4. fourth\n")
    assert html_markdown == "Steps:\n\n3. third\n4. fourth\n"


def test_a_list_that_starts_later_keeps_its_number_on_the_page(client):
    post = NewsPostFactory(body=to_markdown("Steps:\n\n  3. third\n  4. fourth\n"))
    response = client.get(post.get_absolute_url())
    assert '<ol start="3">' in response.content.decode()
    assert NewsPost.objects.count() == 1
