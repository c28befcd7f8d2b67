"""Every view that reads a number from the request, walked with superscripts, full-width
and other scripts' digits (issue 58): a 400 with the reason (404 where the address names
nothing), never a 500, and never an answer the edge could keep as a page of its own."""

import string

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory
from tests.foundation.factories import (
    CategoryFactory,
    DocumentVersionFactory,
    NewsPostFactory,
    TagFactory,
)
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db

STRAY = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: c not in string.digits)


@st.composite
def foreign_numbers(draw, ascii_value):
    """An ASCII value with a character that looks like a digit put in or swapped in."""
    text = draw(st.sampled_from(ascii_value))
    where = draw(st.integers(0, len(text)))
    stray = draw(STRAY)
    replace = draw(st.booleans()) and where < len(text)
    return text[:where] + stray + text[where + (1 if replace else 0) :]


def _shareable(response) -> bool:
    return "public" in response.get("Cache-Control", "") or "s-maxage" in response.get(
        "Cache-Control", ""
    )


@pytest.fixture
def pages(db):
    """An address of each view that reads a number from its query, with the parameter."""
    CategoryFactory(name="Performance")
    TagFactory(name="sysbench")
    NewsPostFactory()
    SeriesFactory(version="11.4")
    ReleaseFactory(version="11.4.9", is_published=True)
    DocumentVersionFactory(number=1, status="adopted")
    DocumentVersionFactory(number=2, status="adopted")
    run = RunFactory(suite=SuiteFactory(slug="thread-pool"))
    MeasurementFactory(run=run)
    return [
        ("/news/", "page", ["2", "1"]),
        ("/news/category/performance/", "page", ["2"]),
        ("/news/tag/sysbench/", "page", ["2"]),
        ("/download/11.4/", "page", ["2"]),
        ("/security/", "page", ["2"]),
        ("/search/", "page", ["2"]),
        ("/benchmarks/thread-pool/compare/", "a", [str(run.pk)]),
        ("/benchmarks/thread-pool/compare/", "b", [str(run.pk)]),
        ("/api/feedback/summary", "days", ["30", "3", "365"]),
        ("/api/feedback/summary", "month", ["2026-11"]),
        ("/funding/", "year", ["2026"]),
        ("/about/governance/bylaws/v2/diff/", "from", ["1"]),
    ]


def _get(client, path, name, value):
    query = {name: value, **({"q": "bylaws"} if path == "/search/" else {})}
    return client.get(path, query, HTTP_ACCEPT="text/html")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_number_reading_view_refuses_other_digits(pages, data):
    client = Client()
    for path, name, ascii_values in pages:
        value = data.draw(foreign_numbers(ascii_values), label=f"{path} {name}")
        response = _get(client, path, name, value)
        assert 400 <= response.status_code < 500, (path, name, value, response.status_code)
        assert not _shareable(response), (path, name, value)


def test_the_ascii_spellings_still_answer(pages, client):
    """The same pages with the digits 0-9 are served: the refusal is of the spelling."""
    served = {
        "/news/": "1",
        "/download/11.4/": "2",
        "/search/": "2",
        "/security/": "2",
        "/api/feedback/summary": "30",
        "/benchmarks/thread-pool/compare/": None,
        "/about/governance/bylaws/v2/diff/": "1",
    }
    for path, name, values in pages:
        if path in served and (served[path] is None or served[path] in values):
            value = served[path] or values[0]
            assert _get(client, path, name, value).status_code == 200, (path, name)


@pytest.mark.parametrize("days", ["²", "①", "⁹"])
def test_reproducer_feedback_summary_days_in_superscripts_was_a_500(client, days):
    response = client.get("/api/feedback/summary", {"days": days})
    assert response.status_code == 400
    assert "“days” must be a whole number written with the digits 0-9" in response.json()["error"]


@pytest.mark.parametrize("days", ["３０", "٣"])
def test_reproducer_feedback_summary_days_in_other_scripts_were_read_as_numbers(client, days):
    response = client.get("/api/feedback/summary", {"days": days})
    assert response.status_code == 400
    assert "is not one of them" in response.json()["error"]


def test_reproducer_news_page_two_in_each_digit_script_is_no_page_of_its_own(client):
    for _ in range(11):
        NewsPostFactory()
    assert client.get("/news/?page=2").status_code == 200
    twos = [chr(code) for code in range(0x110000) if chr(code).isdigit()]
    twos = [c for c in twos if c != "2" and ((c.isdecimal() and int(c) == 2) or c in "²②⑵⒉")]
    assert len(twos) >= 24  # 24 scripts' 2 were each an edge-cache entry of page 2
    for two in twos:
        response = client.get("/news/", {"page": two}, HTTP_ACCEPT="text/html")
        assert response.status_code == 400, two
        assert not _shareable(response)
        assert "“page” must be a whole number written with the digits 0-9" in response.text
