"""Sitemap pieces for /sitemap.xml (assembled in config/sitemaps.py)."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class NamedPagesSitemap(Sitemap):
    """Fixed pages, given by URL name: each app lists its own."""

    def __init__(self, *url_names, changefreq=None):
        self.url_names = list(url_names)
        self.changefreq = changefreq

    def items(self):
        return self.url_names

    def location(self, item):
        return reverse(item)


core_pages = NamedPagesSitemap("home", "accessibility", changefreq="weekly")
