"""/sitemap.xml: every public section. Each app owns its sitemap classes; only config,
at the top of the stack, may put them together."""

from benchmarks.sitemaps import BenchmarkIndexSitemap, SuiteSitemap
from core.sitemaps import CorePagesSitemap
from donations.sitemaps import DonationPagesSitemap
from feedback.trends.sitemaps import TrendsSitemap
from foundation.sitemaps import DocumentSitemap, MeetingSitemap, NewsSitemap, PagesSitemap
from releases.sitemaps import DownloadPagesSitemap, ReleaseSitemap, SeriesSitemap
from sponsors.sitemaps import SponsorPagesSitemap

SITEMAPS = {
    "site": CorePagesSitemap,
    "pages": PagesSitemap,
    "news": NewsSitemap,
    "governance": DocumentSitemap,
    "meetings": MeetingSitemap,
    "download": DownloadPagesSitemap,
    "series": SeriesSitemap,
    "releases": ReleaseSitemap,
    "usage": TrendsSitemap,
    "benchmarks": BenchmarkIndexSitemap,
    "suites": SuiteSitemap,
    "sponsors": SponsorPagesSitemap,
    "donations": DonationPagesSitemap,
}
