"""/sitemap.xml: every public section. Each app owns its sitemap classes; only config,
at the top of the stack, may put them together."""

from benchmarks.sitemaps import SuiteSitemap, benchmark_pages
from core.sitemaps import core_pages
from donations.sitemaps import donation_pages
from feedback.trends.sitemaps import trends_pages
from foundation.sitemaps import DocumentSitemap, MeetingSitemap, NewsSitemap, foundation_pages
from releases.sitemaps import ReleaseSitemap, SeriesSitemap, download_pages
from sponsors.sitemaps import sponsor_pages

SITEMAPS = {
    "site": core_pages,
    "pages": foundation_pages,
    "news": NewsSitemap,
    "governance": DocumentSitemap,
    "meetings": MeetingSitemap,
    "download": download_pages,
    "series": SeriesSitemap,
    "releases": ReleaseSitemap,
    "usage": trends_pages,
    "benchmarks": benchmark_pages,
    "suites": SuiteSitemap,
    "sponsors": sponsor_pages,
    "donations": donation_pages,
}
