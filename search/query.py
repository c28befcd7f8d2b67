"""Searching the index: PostgreSQL full-text search with weighted ranking and highlighted
snippets.

The visitor's words go to ``websearch_to_tsquery`` as a bound parameter: it accepts any
text (quotes, ``or``, ``-word``, stray operators) without a syntax error, so no query can
fail. Only the length is limited, by ``MAX_QUERY_LENGTH``.
"""

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank
from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Concat
from django.utils import timezone

from search.models import TEXT_SEARCH_CONFIG, SearchDocument
from search.snippets import START, STOP, marked_to_html

MAX_QUERY_LENGTH = 200
RESULTS_PER_PAGE = 10
# ts_rank weights for the D, C, B and A parts of the vector: body C, summary B, title A.
RANK_WEIGHTS = [0.05, 0.2, 0.4, 1.0]
# A small lift for recent entries: never enough to put a body match above a title match.
RECENCY_BOOSTS = [(timedelta(days=365), 1.2), (timedelta(days=3 * 365), 1.1)]
SELECTORS: dict[str, Any] = {"start_sel": START, "stop_sel": STOP}
HEADLINE_OPTIONS: dict[str, Any] = {
    **SELECTORS,
    "max_words": 35,
    "min_words": 15,
    "max_fragments": 2,
    "fragment_delimiter": " … ",
}
# "MariaDB 11.8" asks for the same entry as "11.8".
PRODUCT_PREFIX = re.compile(r"^mariadb\s+", re.IGNORECASE)


class QueryTooLong(ValueError):
    pass


@dataclass(frozen=True)
class Hit:
    kind: str
    kind_label: str
    url: str
    title_html: str
    snippet_html: str
    date: date | None


@dataclass
class Facet:
    kind: str
    label: str
    count: int
    selected: bool = False


@dataclass
class Results:
    text: str
    kind: str
    page: Page
    facets: list[Facet] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(facet.count for facet in self.facets)


def clean_query(text: str) -> str:
    text = " ".join((text or "").split())
    if len(text) > MAX_QUERY_LENGTH:
        raise QueryTooLong(text)
    return text


def search(text: str, kind: str = "", page_number=1, now=None) -> Results:
    """Search ``text`` (already through ``clean_query``), optionally in one kind only."""
    if kind not in SearchDocument.Kind.values:
        kind = ""
    visible = SearchDocument.objects.visible(now)
    names = exact_names(text)
    matches, to_hit = _full_text(visible, text, names, now)
    facets = _facets(matches, kind)
    ranked = matches.filter(kind=kind) if kind else matches
    page = Paginator(ranked, RESULTS_PER_PAGE).get_page(page_number)
    page.object_list = [to_hit(document) for document in page.object_list]
    return Results(text=text, kind=kind, page=page, facets=facets)


def exact_names(text: str) -> list[str]:
    """The ``exact_name`` values a query asks for by itself: "11.8", "MariaDB 11.8"."""
    whole = text.strip().strip('"').strip()
    return sorted({whole, PRODUCT_PREFIX.sub("", whole)} - {""})


def _exact(names) -> Case:
    """1 for the entry that is the answer to the query as a whole (a series or release
    number), which then comes first whatever the rank; else 0."""
    return Case(
        When(exact_name__in=names, then=Value(1)), default=Value(0), output_field=IntegerField()
    )


def _facets(matches: QuerySet, kind: str) -> list[Facet]:
    counts = dict(matches.order_by().values_list("kind").annotate(n=Count("id")))
    return [
        Facet(value, label, counts[value], selected=value == kind)
        for value, label in SearchDocument.Kind.choices
        if counts.get(value)
    ]


def _hit(document, title_marked: str, snippet_marked: str) -> Hit:
    return Hit(
        kind=document.kind,
        kind_label=document.get_kind_display(),
        url=document.url,
        title_html=marked_to_html(title_marked),
        snippet_html=marked_to_html(snippet_marked),
        date=document.date,
    )


def _recency(now) -> Case:
    today = timezone.localdate(now) if now else timezone.localdate()
    return Case(
        *[When(date__gte=today - age, then=Value(boost)) for age, boost in RECENCY_BOOSTS],
        default=Value(1.0),
        output_field=FloatField(),
    )


def _full_text(visible: QuerySet, text: str, names, now):
    query = SearchQuery(text, search_type="websearch", config=TEXT_SEARCH_CONFIG)
    matches = (
        visible.filter(Q(vector=query) | Q(exact_name__in=names))
        .annotate(
            exact=_exact(names),
            rank=SearchRank(F("vector"), query, weights=RANK_WEIGHTS) * _recency(now),
            title_marked=SearchHeadline(
                "title", query, config=TEXT_SEARCH_CONFIG, highlight_all=True, **SELECTORS
            ),
            snippet_marked=Case(
                # A fixed page's body is the words it is searched by: it shows its summary.
                When(
                    kind=SearchDocument.Kind.PAGE,
                    then=SearchHeadline(
                        "summary", query, config=TEXT_SEARCH_CONFIG, highlight_all=True, **SELECTORS
                    ),
                ),
                default=SearchHeadline(
                    Concat("summary", Value(" "), "body", output_field=TextField()),
                    query,
                    config=TEXT_SEARCH_CONFIG,
                    **HEADLINE_OPTIONS,
                ),
                output_field=TextField(),
            ),
        )
        .defer("body", "summary", "vector")
        .order_by("-exact", "-rank", "-date", "pk")
    )
    return matches, lambda d: _hit(d, _title_marks(d.title, d.title_marked), d.snippet_marked)


def _title_marks(title: str, marked: str) -> str:
    """The highlighted title, unless ts_headline's parser dropped something from it (it
    leaves out what looks like an HTML tag): then the title as it is."""
    return marked if marked.replace(START, "").replace(STOP, "") == title else title
