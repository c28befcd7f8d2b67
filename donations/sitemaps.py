"""The public donation and funding pages, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class DonationPagesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return ["donations:donate", "donations:funding"]

    def location(self, item):
        return reverse(item)
