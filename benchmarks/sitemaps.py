"""The benchmark index and every published suite, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap

from benchmarks.models import Suite
from core.sitemaps import NamedPagesSitemap
from search.sources import Page

benchmark_pages = NamedPagesSitemap("benchmarks:index")


class SuiteSitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(Suite.objects.published())


# The fixed page above as the site search finds it (search.sources.register_pages).
search_pages = [
    Page(
        "benchmarks:index",
        "Benchmarks",
        "Benchmark results the foundation and its community have published, with their "
        "environment and raw data, so anyone can check them or run them again.",
        "benchmarks benchmark performance results sysbench throughput latency runs compare",
    ),
]
