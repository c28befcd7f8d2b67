"""The site's main menu, as the apps fill it.

Each app adds the entries of its own pages from its ``AppConfig.ready()``
(``navigation.add("Download", "releases:download", order=40)``); core names none of
them. The menu lists them by ``order``, and marks as current the entry whose address
starts the requested path. Reversing needs no request or database, so the 503 page shows
the menu too.
"""

from dataclasses import dataclass
from functools import cache

from django.urls import reverse


@dataclass(frozen=True)
class Entry:
    label: str
    url_name: str
    order: int


_entries: dict[str, Entry] = {}


def add(label: str, url_name: str, *, order: int) -> None:
    """List the page at the URL named ``url_name`` in the main menu as ``label``;
    entries appear by ``order``, lowest first."""
    _entries[url_name] = Entry(label, url_name, order)
    _addresses.cache_clear()


@cache
def _addresses() -> tuple[tuple[str, str], ...]:
    """(label, address) of each entry, in menu order: reversed once per process."""
    ordered = sorted(_entries.values(), key=lambda entry: entry.order)
    return tuple((entry.label, reverse(entry.url_name)) for entry in ordered)


def menu(path: str) -> list[dict]:
    """The entries for a page at ``path``: label, url and whether it is the current one."""
    return [
        {"label": label, "url": url, "current": path.startswith(url)} for label, url in _addresses()
    ]
