"""The pages a browser walk visits: the sitemap's URLs, and a few of each kind.

A plain module (not conftest) so that tests import it explicitly."""

import re
from collections import defaultdict
from urllib.parse import urlsplit

from django.urls import resolve

# A route with more URLs than this (every release, every series) is sampled.
MANY = 6


def sitemap_paths(page, base_url):
    """The paths /sitemap.xml lists, in its order."""
    xml = page.request.get(base_url + "/sitemap.xml").text()
    return [urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", xml)]


def route_name(path):
    return resolve(path).view_name


def every_kind(paths, per_route=2):
    """Every path of a route with a handful of URLs; for a route with many (release and
    series pages), its first and last few, so each distinct page kind is still seen."""
    by_route = defaultdict(list)
    for path in paths:
        by_route[route_name(path)].append(path)
    chosen = set()
    for group in by_route.values():
        if len(group) <= MANY:
            chosen.update(group)
        else:
            chosen.update(group[:per_route] + group[-per_route:])
    return [path for path in paths if path in chosen]
