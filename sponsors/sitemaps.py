"""The public sponsorship pages, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class SponsorPagesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return ["sponsors:programmes", "sponsors:supporters"]

    def location(self, item):
        return reverse(item)
