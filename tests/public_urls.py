"""Every public URL a visitor or a script reads: the sitemap's pages, and the feeds and
read APIs the sitemap does not list. A plain module (not conftest): the query-count test
(tests/core/test_every_public_url.py) and bench/page_build.py both walk it."""

import re
from urllib.parse import urlsplit

# Feeds, API roots and exports: public, read by scripts, not pages of the sitemap.
FEEDS_AND_API_ROOTS = (
    "/sitemap.xml",
    "/robots.txt",
    "/opensearch.xml",
    "/news/feed/",
    "/download/feed/",
    "/download/end-of-life.ics",
    "/security/feed/",
    "/benchmarks/regressions.atom",
    "/api/releases/",
    "/api/security/",
    "/api/feedback/summary",
    "/api/feedback/snapshots/",
    "/api/feedback/datapackage.json",
    "/api/benchmarks/datapackage.json",
    "/api/repo-config/options",
    "/rest-api/mariadb/",
    "/rest-api/mirrors/",
    "/funding.csv",
    "/funding-years.csv",
    "/funding/datapackage.json",
)


def sitemap_paths(client) -> list[str]:
    """The paths /sitemap.xml lists, in its order, asked of Django's test client."""
    xml = client.get("/sitemap.xml").content.decode()
    return [urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", xml)]


def public_paths(client) -> list[str]:
    """The sitemap's paths, then the feeds and API roots it does not list."""
    listed = sitemap_paths(client)
    return listed + [path for path in FEEDS_AND_API_ROOTS if path not in listed]
