"""/sitemap.xml: the sections the apps register from their ``AppConfig.ready()``, and the
sitemap of fixed pages each app lists."""

from __future__ import annotations

from typing import Any

from django.contrib.sitemaps import Sitemap
from django.urls import reverse


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
