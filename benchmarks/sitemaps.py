"""The benchmark index and every published suite, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap

from benchmarks.models import Suite
from core.sitemaps import NamedPagesSitemap

benchmark_pages = NamedPagesSitemap("benchmarks:index")


class SuiteSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(Suite.objects.published())
