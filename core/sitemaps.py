"""/sitemap.xml: the sections the apps register from their ``AppConfig.ready()``, the
sitemap of fixed pages each app lists, and the view that writes them.

Each section is a ``django.contrib.sitemaps.Sitemap`` (``items``, ``location``,
``lastmod``, ``changefreq``, ``priority``), but the document is written by ``sitemap_xml``
as plain text, not through a template: with a thousand URLs, the template took most of
the build (docs/PERFORMANCE.md). Sections return lists of rows read with only the fields
their URLs and dates need."""

from __future__ import annotations

from datetime import date, datetime
from html import escape
from typing import Any

from django.contrib.sitemaps import Sitemap
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)
TAIL = "\n</urlset>\n"


class NamedPagesSitemap(Sitemap):  # type: ignore[type-arg]  # not subscriptable at run time
    """Fixed pages, given by URL name: each app lists its own."""

    def __init__(self, *url_names: str, changefreq: str | None = None) -> None:
        self.url_names = list(url_names)
        self.changefreq = changefreq

    def items(self) -> list[str]:
        return self.url_names

    def location(self, item: str) -> str:
        return reverse(item)


core_pages = NamedPagesSitemap("home", "accessibility", changefreq="weekly")


_sections: dict[str, Sitemap[Any] | type[Sitemap[Any]]] = {}


def register(section: str, sitemap: Sitemap[Any] | type[Sitemap[Any]]) -> None:
    """Add a section to /sitemap.xml (listed in the order the apps register them)."""
    if _sections.get(section, sitemap) is not sitemap:
        raise ValueError(f"two sitemaps claim the section {section!r}")
    _sections[section] = sitemap


def sections() -> dict[str, Sitemap[Any] | type[Sitemap[Any]]]:
    """What django.contrib.sitemaps's view takes: section name to sitemap."""
    return dict(_sections)


def _value(sitemap: Sitemap[Any], name: str, item: Any) -> Any:
    """A sitemap's attribute for one item: a method of the item, a constant, or None."""
    value = getattr(sitemap, name, None)
    return value(item) if callable(value) else value


def _day(value: date | datetime) -> str:
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        value = value.date()
    return value.isoformat()


def _entry(location: str, lastmod: Any, changefreq: Any, priority: Any) -> str:
    parts = [f"<url><loc>{escape(location)}</loc>"]
    if lastmod:
        parts.append(f"<lastmod>{_day(lastmod)}</lastmod>")
    if changefreq:
        parts.append(f"<changefreq>{escape(changefreq)}</changefreq>")
    if priority is not None and priority != "":
        parts.append(f"<priority>{priority}</priority>")
    parts.append("</url>")
    return "".join(parts)


@require_safe
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    """/sitemap.xml: every registered section's URLs, in the order the apps registered
    them, as django.contrib.sitemaps writes them (absolute, with their day, change
    frequency and priority), written as text."""
    site = get_current_site(request)
    entries = []
    for section in _sections.values():
        sitemap = section() if isinstance(section, type) else section
        base = f"{sitemap.get_protocol(request.scheme)}://{sitemap.get_domain(site)}"
        for item in sitemap.items():
            entries.append(
                _entry(
                    base + sitemap.location(item),
                    _value(sitemap, "lastmod", item),
                    _value(sitemap, "changefreq", item),
                    _value(sitemap, "priority", item),
                )
            )
    response = HttpResponse(HEAD + "".join(entries) + TAIL, content_type="application/xml")
    response["X-Robots-Tag"] = "noindex, noodp, noarchive"
    return response
