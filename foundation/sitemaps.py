"""The foundation's part of /sitemap.xml (registered from the app's AppConfig.ready()).

Sitemaps of rows return lists, not querysets: the sitemap's paginator then counts them
without a second query, keeping /sitemap.xml to one query per section."""

from django.contrib.sitemaps import Sitemap

from core.sitemaps import NamedPagesSitemap
from foundation.models import BoardMeeting, GovernanceDocument, NewsPost
from search.sources import Page


class NewsSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(
            NewsPost.objects.published().order_by("-published_at").only("slug", "updated_at")
        )

    def lastmod(self, item):
        return item.updated_at


foundation_pages = NamedPagesSitemap(
    "foundation:about",
    "foundation:board",
    "foundation:staff",
    "foundation:governance",
    "foundation:meetings",
    "foundation:news-list",
    "foundation:contact",
    changefreq="weekly",
)


class DocumentSitemap(Sitemap):
    def items(self):
        return list(
            GovernanceDocument.objects.filter(
                versions__status__in=["discussion", "adopted"]
            ).distinct()
        )


class MeetingSitemap(Sitemap):
    changefreq = "yearly"

    def items(self):
        return list(BoardMeeting.objects.published())


# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "foundation:about",
        "About the MariaDB Foundation",
        "What the foundation does, how it is funded, who runs it and its affiliations.",
        "mission independent non-profit community open source MariaDB Server board funding",
    ),
    Page(
        "foundation:board",
        "Board of directors",
        "The foundation's board: its members, their seats and terms.",
        "board members directors chair treasurer secretary chief executive seats terms",
    ),
    Page(
        "foundation:staff",
        "Staff",
        "The people who run the foundation day to day.",
        "staff team people advisors",
    ),
    Page(
        "foundation:governance",
        "Governance",
        "How the foundation is governed: bylaws and policies, drafts under public "
        "discussion, the engineering council and the organisations it belongs to.",
        "bylaws policies documents discussion engineering council governance",
    ),
    Page(
        "foundation:meetings",
        "Board meetings",
        "The published minutes of the board's meetings.",
        "board meetings minutes decisions agenda",
    ),
    Page(
        "foundation:news-list",
        "News",
        "The foundation's news: announcements, releases and reports, with an Atom feed.",
        "news blog announcements posts articles feed",
    ),
    Page(
        "foundation:contact",
        "Contact the foundation",
        "Questions about the foundation, becoming a sponsor or member, or anything else: "
        "the staff read every message.",
        "contact form message email question write to us get in touch",
    ),
]
