"""The foundation's objects in the site search: news, governance documents, the board and
its meetings (registered from ``FoundationConfig.ready()``)."""

from django.db.models import Prefetch
from django.urls import reverse
from django.utils import dateformat

from foundation.models import (
    BoardMeeting,
    BoardSeat,
    DocumentVersion,
    GovernanceDocument,
    NewsPost,
    Person,
)
from search.models import SearchDocument
from search.sources import Entry, Source, plain_text, register

Kind = SearchDocument.Kind


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


def register_sources() -> None:
    register(Source(NewsPost, Kind.NEWS, _news, _describe_news))
    register(
        Source(GovernanceDocument, Kind.DOCUMENT, _documents, _describe_document),
        dependents={DocumentVersion: lambda version: (GovernanceDocument, version.document_id)},
    )
    register(
        Source(Person, Kind.BOARD, _board_members, _describe_board_member),
        dependents={BoardSeat: lambda seat: (Person, seat.person_id)},
    )
    register(Source(BoardMeeting, Kind.MEETING, BoardMeeting.objects.published, _describe_meeting))
