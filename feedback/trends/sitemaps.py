"""The public usage statistics pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap

trends_pages = NamedPagesSitemap("trends:dashboard", "trends:privacy", changefreq="monthly")
