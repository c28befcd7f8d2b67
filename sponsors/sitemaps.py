"""The public sponsorship pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap

sponsor_pages = NamedPagesSitemap("sponsors:programmes", "sponsors:supporters", changefreq="weekly")
