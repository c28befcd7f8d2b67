"""Downloads, series, releases and the repository generator, for /sitemap.xml."""

from django.contrib.sitemaps import Sitemap

from core.sitemaps import NamedPagesSitemap
from releases.models import Release, Series
from search.sources import Page

download_pages = NamedPagesSitemap(
    "releases:download", "releases:series-index", "repoconfig:generator", changefreq="weekly"
)


class SeriesSitemap(Sitemap):
    changefreq = "weekly"

    def items(self):
        return list(Series.objects.order_by("version").only("version"))


class ReleaseSitemap(Sitemap):
    changefreq = "yearly"

    def items(self):
        return list(
            Release.objects.published()
            .select_related("series")
            .order_by("pk")
            .only("version", "release_date", "series__version")
        )

    def lastmod(self, item):
        return item.release_date


# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "releases:download",
        "Download MariaDB Server",
        "Source code, generic Linux binaries and Windows installers of every release, "
        "with their sizes, SHA-256 checksums, signatures and how to verify a download.",
        "download install MariaDB Server release files tarball MSI installer ZIP Windows "
        "Linux source code mirror checksum checksums SHA-256 SHA-512 verify verification "
        "signature GPG signing key release announcements mail subscribe",
    ),
    Page(
        "releases:series-index",
        "MariaDB release series",
        "Every release series, supported and past its end of life, with its support type "
        "and dates.",
        "series versions long-term support LTS end of life EOL supported "
        "rolling preview maintenance dates calendar",
    ),
    Page(
        "repoconfig:generator",
        "MariaDB repository configuration",
        "The exact repository file and commands for your distribution, its release, a "
        "MariaDB series and a mirror, so that your package manager installs and updates "
        "MariaDB.",
        "repository configuration repo config APT YUM DNF zypper Debian "
        "Ubuntu RHEL Rocky Alma CentOS Fedora SLES sources.list package manager install mirror",
    ),
]
