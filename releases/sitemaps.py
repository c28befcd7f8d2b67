"""Downloads, series, releases and the repository generator, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap

from core.sitemaps import NamedPagesSitemap
from releases.models import Release, Series

download_pages = NamedPagesSitemap(
    "releases:download", "releases:series-index", "repoconfig:generator", changefreq="weekly"
)


class SeriesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return list(Series.objects.order_by("version"))


class ReleaseSitemap(Sitemap):
    changefreq = "yearly"

    def items(self):
        return list(Release.objects.published().select_related("series").order_by("pk"))

    def lastmod(self, item):
        return item.release_date
