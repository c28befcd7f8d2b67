from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from foundation.models import GovernanceDocument, NewsPost


class NewsSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return NewsPost.objects.published().order_by("-published_at")

    def lastmod(self, item):
        return item.updated_at


class PagesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return [
            "home",
            "foundation:about",
            "foundation:board",
            "foundation:staff",
            "foundation:governance",
            "foundation:news-list",
            "foundation:contact",
        ]

    def location(self, item):
        return reverse(item)


class DocumentSitemap(Sitemap):
    def items(self):
        return GovernanceDocument.objects.filter(
            versions__status__in=["discussion", "adopted"]
        ).distinct()


SITEMAPS = {"pages": PagesSitemap, "news": NewsSitemap, "governance": DocumentSitemap}
