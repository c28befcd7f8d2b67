"""The public usage statistics pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap
from search.sources import Page

trends_pages = NamedPagesSitemap("trends:dashboard", "trends:privacy", changefreq="monthly")

# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "trends:dashboard",
        "MariaDB usage statistics",
        "What the servers that send feedback reports run: versions, operating systems, "
        "architectures and features, over time.",
        "usage statistics feedback plugin reports adoption versions operating systems "
        "charts trends dashboard telemetry",
    ),
    Page(
        "trends:privacy",
        "Privacy of MariaDB usage reports",
        "What a feedback report contains, what is kept and what is published.",
        "privacy feedback plugin usage reports data personal data retention anonymous",
    ),
]
