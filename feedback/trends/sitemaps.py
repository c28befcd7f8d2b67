"""The public usage statistics pages, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class TrendsSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return ["trends:dashboard", "trends:privacy"]

    def location(self, item):
        return reverse(item)
