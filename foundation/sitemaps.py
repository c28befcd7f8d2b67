"""The foundation's part of /sitemap.xml (registered from the app's AppConfig.ready()).

Sitemaps of rows return lists, not querysets: the sitemap's paginator then counts them
without a second query, keeping /sitemap.xml to one query per section."""

from django.contrib.sitemaps import Sitemap

from core.sitemaps import NamedPagesSitemap
from foundation.models import BoardMeeting, GovernanceDocument, NewsPost


class NewsSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(NewsPost.objects.published().order_by("-published_at"))

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
