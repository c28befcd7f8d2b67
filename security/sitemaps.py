"""The advisories' pages, for /sitemap.xml (and the fixed ones for the site search)."""

from django.contrib.sitemaps import Sitemap

from core.sitemaps import NamedPagesSitemap
from search.sources import Page
from security.models import Advisory

security_pages = NamedPagesSitemap("security:advisories", "security:affected", changefreq="weekly")


class AdvisorySitemap(Sitemap):
    changefreq = "monthly"

    def items(self):
        return list(Advisory.objects.order_by("advisory_id").only("advisory_id", "updated_at"))

    def lastmod(self, item):
        return item.updated_at


search_pages = [
    Page(
        "security:advisories",
        "MariaDB Server security advisories",
        "Vulnerabilities (CVEs) fixed in MariaDB Server: severity, the releases each affects "
        "and the releases that fix it, per series; in OSV and as a feed.",
        "security advisories vulnerabilities CVE CVSS severity critical high fixed affected "
        "upgrade patch OSV feed scanner",
    ),
    Page(
        "security:affected",
        "Is my MariaDB server affected?",
        "Paste what SELECT VERSION() prints: the advisories that affect that release and the "
        "release to upgrade to.",
        "am I affected SELECT VERSION() version check vulnerable upgrade security CVE",
    ),
]
