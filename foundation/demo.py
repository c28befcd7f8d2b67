"""Demo content from the seed documents: the interim board, staff, advisor,
affiliations and bylaws draft from the quarterly update, and the seed articles as news."""

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from django.utils.text import slugify

from core import demo
from core.formatting import excerpt
from foundation.models import (
    Affiliation,
    BoardMeeting,
    BoardSeat,
    Category,
    DocumentVersion,
    GovernanceDocument,
    NewsPost,
    Person,
    Role,
    Tag,
)
from foundation.seedtext import first_paragraph, to_markdown

SUMMARY_LENGTH = 240
SEEDS = Path(__file__).resolve().parent / "demo_data"
INTERIM_START = date(2013, 4, 23)

PEOPLE = {
    "Sergei Golubchik": "MariaDB developer",
    "Rasmus Johansson": "",
    "Andrew Katz": "General Counsel of the foundation",
    "Simon Phipps": "Chief executive of the foundation (interim, part time)",
    "Monty Widenius": "Creator of MySQL and MariaDB; CTO of the foundation",
    "Jeremy Zawodny": "",
    "Mike Milinkovich": "Executive director of the Eclipse Foundation",
    "Andy Updegrove": "US attorney supporting the General Counsel",
}
BOARD = [
    ("Simon Phipps", "ceo"),
    ("Sergei Golubchik", "member"),
    ("Rasmus Johansson", "member"),
    ("Andrew Katz", "member"),
    ("Monty Widenius", "member"),
    ("Jeremy Zawodny", "member"),
]
STAFF = [
    ("Chief executive officer (part time)", "Simon Phipps", "Acting in the interim period."),
    (
        "Chief technology officer",
        "Monty Widenius",
        "Structures the foundation's engineering functions.",
    ),
    ("Developer", None, "One of two developers, currently focused on documentation."),
    ("Developer", None, "One of two developers, currently focused on documentation."),
    ("Administrator (part time)", None, ""),
    ("General Counsel", "Andrew Katz", "Supported by US attorney Andy Updegrove."),
    ("US attorney", "Andy Updegrove", ""),
    ("Virtual CFO", None, "A “virtual CFO” retained for the finances."),
]
AFFILIATIONS = [
    ("Open Source Initiative", "Affiliate Member", "https://opensource.org/",
     "The foundation joined the OSI to play a full part in the wider community of open source communities."),
    ("Open Invention Network", "Licensee", "https://openinventionnetwork.com/",
     "A licensee of the patent non-aggression community."),
]  # fmt: skip
POSTS = [
    ("quarterly-update.txt", "Quarterly update from the foundation's board", "Simon Phipps",
     ["Quarterly updates"], ["governance", "board"], datetime(2013, 7, 1, 9, tzinfo=UTC)),
    ("thread-pool.txt", None, "Vladislav Vaintroub", ["Performance", "Benchmarks"], ["thread pool", "sysbench"],
     datetime(2012, 3, 16, 9, tzinfo=UTC)),
    ("replication-preview.txt", None, "Kristian Nielsen", ["Replication", "Releases"], ["group commit"],
     datetime(2011, 1, 10, 9, tzinfo=UTC)),
    ("leanxcale.txt", None, "LeanXcale", ["Benchmarks"], ["YCSB"], datetime(2020, 6, 1, 9, tzinfo=UTC)),
    ("big-data.txt", None, "Kazuhiko Shiozaki", ["Performance", "Benchmarks"], ["storage engines", "big data"],
     datetime(2019, 4, 29, 9, tzinfo=UTC)),
]  # fmt: skip

BYLAWS_V1 = """\
# Bylaws of the foundation (demo draft)

*This is a short demonstration text written for this site, not the foundation's real bylaws.*

## 1. Purpose
The foundation sustains and delivers MariaDB Server on behalf of its community,
independently of the business interests of any single member.

## 2. Board
The board has an interim composition until the first elections.

## 3. Members
Commercial members support the foundation and take part in governance oversight.
"""
BYLAWS_V2 = """\
# Bylaws of the foundation (demo draft)

*This is a short demonstration text written for this site, not the foundation's real bylaws.*

## 1. Purpose
The foundation sustains and delivers MariaDB Server on behalf of its community,
independently of the business interests of any single member. The server stays under the GPL.

## 2. Board
The board is divided equally between community-recognised technical contributors and
corporate members. Each director serves a term of two years.

## 3. Members
Commercial members support the foundation, join the advisory list, and identify up to
half of the board.

## 4. Engineering council
An engineering council acts as the focus for consensus about MariaDB itself.
"""


def load(log):
    people = {}
    for name, note in PEOPLE.items():
        people[name], _ = Person.objects.update_or_create(
            slug=slugify(name), defaults={"name": name, "affiliation": note}
        )
    for name, office in BOARD:
        BoardSeat.objects.update_or_create(
            person=people[name],
            term_start=INTERIM_START,
            defaults={
                "constituency": BoardSeat.Constituency.INTERIM,
                "office": office,
                "is_demo": True,
            },
        )
    Role.objects.update_or_create(
        kind=Role.Kind.ADVISOR,
        title="Advisor to the board",
        person=people["Mike Milinkovich"],
        defaults={
            "description": "Attends the board's meetings; the planned governance is modelled on the Eclipse Foundation's.",
            "is_demo": True,
        },
    )
    for order, (title, holder, description) in enumerate(STAFF):
        Role.objects.update_or_create(
            kind=Role.Kind.STAFF,
            order=order,
            defaults={
                "title": title,
                "person": people.get(holder) if holder else None,
                "description": description,
                "is_demo": True,
            },
        )
    Role.objects.update_or_create(
        kind=Role.Kind.COUNCIL,
        order=0,
        defaults={
            "title": "Engineering council member",
            "person": None,
            "is_vacant": True,
            "description": "The council is being formed, modelled on the current MariaDB captains.",
            "is_demo": True,
        },
    )
    for name, relationship, url, description in AFFILIATIONS:
        Affiliation.objects.update_or_create(
            name=name,
            defaults={"relationship": relationship, "url": url, "description": description},
        )

    bylaws, _ = GovernanceDocument.objects.update_or_create(
        slug="bylaws",
        defaults={
            "title": "Bylaws",
            "kind": GovernanceDocument.Kind.BYLAWS,
            "summary": "The rules by which the foundation is governed.",
        },
    )
    now = demo.now()
    DocumentVersion.objects.update_or_create(
        document=bylaws,
        number=1,
        defaults={
            "status": DocumentVersion.Status.ADOPTED,
            "body": BYLAWS_V1,
            "adopted_on": INTERIM_START,
        },
    )
    DocumentVersion.objects.update_or_create(
        document=bylaws,
        number=2,
        defaults={
            "status": DocumentVersion.Status.DISCUSSION,
            "body": BYLAWS_V2,
            "change_summary": "Permanent governance: a board split between contributors and members.",
            "comments_open": now - timedelta(days=7),
            "comments_close": now + timedelta(days=60),
        },
    )

    meeting, _ = BoardMeeting.objects.update_or_create(
        date=date(2013, 6, 20),
        defaults={
            "title": "Interim board meeting",
            "is_published": True,
            "decisions": "- Join the Open Source Initiative as an Affiliate Member.\n"
            "- Become a licensee of the Open Invention Network.\n"
            "- Put new bylaws to public discussion in August 2013.",
            "minutes": "*Demo minutes written for this site, summarising the quarterly update.*",
        },
    )
    meeting.attendees.set([people[name] for name, _ in BOARD] + [people["Mike Milinkovich"]])

    loaded = []
    for file_name, given_title, author, categories, tags, published in POSTS:
        text = (SEEDS / file_name).read_text()
        first_line, _, rest = text.strip().partition("\n")
        source = text if given_title else rest
        body = to_markdown(source)
        title = given_title or first_line.strip()
        summary = excerpt(first_paragraph(source), SUMMARY_LENGTH)
        post, _ = NewsPost.objects.update_or_create(
            slug=slugify(title)[:200],
            defaults={
                "title": title,
                "body": body,
                "summary": summary,
                "status": NewsPost.Status.PUBLISHED,
                "published_at": published,
                "author": people.get(author),
                "author_name": author,
            },
        )
        post.categories.set(
            [
                Category.objects.get_or_create(slug=slugify(c), defaults={"name": c})[0]
                for c in categories
            ]
        )
        post.tags.set(
            [Tag.objects.get_or_create(slug=slugify(t), defaults={"name": t})[0] for t in tags]
        )
        loaded.append(post.pk)
    NewsPost.objects.filter(pk__in=loaded).unedited_since_publication()
    log(f"foundation: {Person.objects.count()} people, {NewsPost.objects.count()} news posts")
