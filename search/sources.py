"""What the search index holds: for each kind of public object, which objects the public
may see, and the title, summary, body text, address and date a search shows for one.

Each ``Source`` answers for one model. ``DEPENDENTS`` says which indexed object a save of
another model changes (a new version changes its governance document's entry).
"""

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db import models
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import dateformat
from django.utils.html import strip_tags

from benchmarks.models import Suite
from core.markdown import render_markdown
from core.shortcodes import SHORTCODE
from foundation.models import (
    BoardMeeting,
    BoardSeat,
    DocumentVersion,
    GovernanceDocument,
    NewsPost,
    Person,
)
from releases.models import Release, Series
from search.models import SearchDocument

Kind = SearchDocument.Kind
# Control characters never belong in indexed text (and \x02/\x03 mark highlights).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
WHITESPACE = re.compile(r"\s+")
TITLE_LENGTH = SearchDocument._meta.get_field("title").max_length


def plain_text(markdown_text: str) -> str:
    """The words of staff-written Markdown, without markup, embeds or control characters."""
    if not markdown_text:
        return ""
    text = html.unescape(strip_tags(render_markdown(SHORTCODE.sub(" ", markdown_text))))
    return clean(text)


def clean(text: str) -> str:
    return WHITESPACE.sub(" ", CONTROL_CHARACTERS.sub(" ", text or "")).strip()


def object_key(model: type[models.Model], pk) -> str:
    return f"{model._meta.label_lower}:{pk}"


@dataclass(frozen=True)
class Entry:
    title: str
    url: str
    summary: str = ""
    body: str = ""
    date: object = None
    visible_from: object = None


@dataclass(frozen=True)
class Source:
    model: type[models.Model]
    kind: str
    public: Callable[[], models.QuerySet]
    describe: Callable[[models.Model], Entry]

    def document(self, obj) -> SearchDocument:
        entry = self.describe(obj)
        return SearchDocument(
            key=object_key(self.model, obj.pk),
            kind=self.kind,
            title=clean(entry.title)[:TITLE_LENGTH],
            summary=clean(entry.summary),
            body=clean(entry.body),
            url=entry.url,
            date=entry.date,
            visible_from=entry.visible_from,
        )


def _public_versions():
    return DocumentVersion.objects.public().order_by("-number")


def _news():
    # Scheduled posts are indexed too, hidden until their time (SearchDocument.visible_from).
    return NewsPost.objects.filter(status=NewsPost.Status.PUBLISHED)


def _describe_news(post):
    return Entry(
        title=post.title,
        url=post.get_absolute_url(),
        summary=post.summary,
        body=plain_text(post.body),
        date=post.published_at.date(),
        visible_from=post.published_at,
    )


def _documents():
    return GovernanceDocument.objects.filter(
        pk__in=_public_versions().values("document_id")
    ).prefetch_related(Prefetch("versions", queryset=_public_versions(), to_attr="public_versions"))


def _describe_document(document):
    latest = document.public_versions[0]
    return Entry(
        title=document.title,
        url=document.get_absolute_url(),
        summary=document.summary or latest.change_summary,
        body=plain_text(latest.body),
        date=latest.adopted_on,
    )


def _board_members():
    return Person.objects.filter(pk__in=BoardSeat.objects.values("person_id")).prefetch_related(
        "board_seats"
    )


def _describe_board_member(person):
    seats = sorted(person.board_seats.all(), key=lambda seat: seat.term_start, reverse=True)
    latest = seats[0]
    summary = f"{latest.get_office_display()} of the board, {latest.get_constituency_display()}"
    if person.affiliation:
        summary += f"; {person.affiliation}"
    summary += "."
    return Entry(
        title=person.name,
        url=reverse("foundation:board"),
        summary=summary,
        body=plain_text(person.bio),
        date=latest.term_start,
    )


def _describe_meeting(meeting):
    return Entry(
        title=f"{meeting.title}, {dateformat.format(meeting.date, 'j F Y')}",
        url=meeting.get_absolute_url(),
        summary=plain_text(meeting.decisions),
        body=plain_text(meeting.minutes),
        date=meeting.date,
    )


def _describe_series(series):
    return Entry(
        title=str(series),
        url=series.get_absolute_url(),
        summary=f"{series.get_status_display()} release series, "
        f"{series.get_support_type_display().lower()}.",
        body=plain_text(series.description),
        date=series.first_release_date,
    )


def _releases():
    return Release.objects.published().select_related("series")


def _describe_release(release):
    return Entry(
        title=str(release),
        url=release.get_absolute_url(),
        summary=f"{release.get_maturity_display()} release in the {release.series} series.",
        body=plain_text(f"{release.release_notes}\n\n{release.changelog}"),
        date=release.release_date,
    )


def _describe_suite(suite):
    return Entry(
        title=suite.title,
        url=suite.get_absolute_url(),
        summary=suite.summary,
        body=plain_text(suite.body),
        date=suite.created_at.date(),
    )


SOURCES = [
    Source(NewsPost, Kind.NEWS, _news, _describe_news),
    Source(GovernanceDocument, Kind.DOCUMENT, _documents, _describe_document),
    Source(Person, Kind.BOARD, _board_members, _describe_board_member),
    Source(BoardMeeting, Kind.MEETING, BoardMeeting.objects.published, _describe_meeting),
    Source(Series, Kind.SERIES, Series.objects.all, _describe_series),
    Source(Release, Kind.RELEASE, _releases, _describe_release),
    Source(Suite, Kind.BENCHMARK, Suite.objects.published, _describe_suite),
]
SOURCE_FOR = {source.model: source for source in SOURCES}

# A save or delete of these models changes the entry of another object: (model, its pk).
DEPENDENTS: dict[type[models.Model], Callable[[models.Model], tuple[type[models.Model], int]]] = {
    DocumentVersion: lambda version: (GovernanceDocument, version.document_id),
    BoardSeat: lambda seat: (Person, seat.person_id),
}
