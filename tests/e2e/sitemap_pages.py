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


def listed_paths(client):
    """The paths /sitemap.xml lists, asked of Django's test client."""
    xml = client.get("/sitemap.xml").content.decode()
    return [urlsplit(loc).path for loc in re.findall(r"<loc>([^<]+)</loc>", xml)]


def route_name(path):
    return resolve(path).view_name


def every_kind(paths, per_route=2, spread=0):
    """Every path of a route with a handful of URLs; for a route with many (release and
    series pages, news posts), its first and last few and, with ``spread``, that many more
    evenly spaced between them, so each distinct page kind is still seen."""
    by_route = defaultdict(list)
    for path in paths:
        by_route[route_name(path)].append(path)
    chosen = set()
    for group in by_route.values():
        if len(group) <= MANY:
            chosen.update(group)
        else:
            chosen.update(group[:per_route] + group[-per_route:])
            if spread:
                chosen.update(group[:: max(1, len(group) // spread)])
    return [path for path in paths if path in chosen]


# The kinds of element a page is made of: a branch of a template that adds a table, a
# figure or a code block shows up here even when it renders no template of its own.
START_TAG = re.compile(r"<([a-z][a-z0-9]*)\b")


def page_variant(response) -> tuple[frozenset[str], frozenset[str]]:
    """What makes two pages alike for a browser audit: the templates Django rendered for
    them (page, layout, includes) and the kinds of element they contain (tag names, not
    how many): two release pages with the same sections are one variant; an article
    with a table is another than one without."""
    templates = frozenset(t.name for t in response.templates if t.name)
    elements = frozenset(START_TAG.findall(response.content.decode()))
    return templates, elements


def representatives(client, paths):
    """One path for each page variant among ``paths`` (the first, in their order), and
    every path fetched once with Django's test client, each answering 200.

    Returns (chosen paths, {path: variant}, failures). The page cache is off while the
    pages are fetched: a stored page records no templates."""
    from django.test import override_settings

    variants, failures = {}, []
    with override_settings(PAGE_CACHE_TIMEOUT=0):
        for path in paths:
            response = client.get(path)
            if response.status_code != 200:
                failures.append(f"{path}: {response.status_code}")
                continue
            variants[path] = page_variant(response)
    first_of = {}
    for path, variant in variants.items():
        first_of.setdefault(variant, path)
    chosen = set(first_of.values())
    return [path for path in paths if path in chosen], variants, failures
