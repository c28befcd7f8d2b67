"""Whatever a visitor types is a query that answers (websearch_to_tsquery takes any text),
and a result's highlighted text can carry no markup but the <mark> the site adds."""

import pytest

from search.snippets import marked_to_html
from tests.foundation.factories import NewsPostFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", ['"', "-", "or", '- "" or', "%", "_", "\\", "a" * 200, "x:*&|!"])
def test_odd_queries_never_fail(client, query):
    NewsPostFactory(title="100% sure_thing")
    assert client.get("/search/", {"q": query}).status_code == 200


def test_marked_to_html_allows_only_the_mark_it_adds():
    html = marked_to_html('\x02<script>\x03 & "x" \x02dangling')
    assert html == "<mark>&lt;script&gt;</mark> &amp; &quot;x&quot; dangling"
