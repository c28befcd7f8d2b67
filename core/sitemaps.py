"""The site-wide pages core serves, for /sitemap.xml (assembled in config/sitemaps.py)."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class CorePagesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return ["home", "accessibility"]

    def location(self, item):
        return reverse(item)
