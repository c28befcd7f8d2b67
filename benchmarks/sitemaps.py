"""The benchmark index and every published suite, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from benchmarks.models import Suite


class BenchmarkIndexSitemap(Sitemap):
    def items(self):
        return ["benchmarks:index"]

    def location(self, item):
        return reverse(item)


class SuiteSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(Suite.objects.published())
