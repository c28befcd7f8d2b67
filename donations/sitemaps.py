"""The public donation and funding pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap

donation_pages = NamedPagesSitemap("donations:donate", "donations:funding", changefreq="weekly")
