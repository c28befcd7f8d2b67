"""What the site's shared templates show of the apps, as the apps register it.

Core's templates (`templates/base.html`, `templates/core/`) name no app's URL and load no
app's tag library: each app tells core, from its ``AppConfig.ready()``, what it adds to

- the main menu: ``navigation.add("Download", "releases:download", order=40)``;
- the signed-in visitor's menu: ``add_account_link("My gifts", "donations:mine", order=20)``;
- the footer, in sections by heading: ``add_footer_link("Software", "Benchmarks",
  "benchmarks:index", order=34)`` (sections in the order of their first link);
- the home page's buttons and highlights: ``add_home_action`` and ``add_home_highlight``;
- the page where visitors write to the site: ``set_contact_page("foundation:contact")``;
- a place in a shared template, as a template of its own: ``include(HOME_COLUMNS,
  "releases/includes/home_releases.html", order=20)``.

Links are listed by ``order``, lowest first, and reversed once per process: that needs no
request or database, so the 503 page shows the menu and the footer too. The main menu
marks as current the entry whose address starts the requested path.
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import _lru_cache_wrapper, cache
from typing import Any

from django.urls import reverse
from django.utils.text import slugify

# The places in the shared templates where apps include templates of their own.
HEAD = "head"  # every page's <head>
HEADER = "header"  # every page's header, after the site's name
HOME_HEAD = "home_head"  # the home page's <head>
HOME_COLUMNS = "home_columns"  # the home page's columns, below its introduction
HOME_BANDS = "home_bands"  # the home page's full-width bands, below the columns
NOT_FOUND = "not_found"  # the 404 page, below its message
PROFILE = "profile"  # the signed-in visitor's profile page, below the form
PLACES = (HEAD, HEADER, HOME_HEAD, HOME_COLUMNS, HOME_BANDS, NOT_FOUND, PROFILE)


@dataclass(frozen=True)
class Link:
    label: str
    url_name: str
    order: int
    section: str = ""  # the footer's section heading
    description: str = ""  # a home highlight's line under its label


_menu: dict[str, Link] = {}
_account: dict[str, Link] = {}
_footer: dict[tuple[str, str], Link] = {}
_home_actions: dict[str, Link] = {}
_home_highlights: dict[str, Link] = {}
_includes: dict[str, dict[str, int]] = {place: {} for place in PLACES}


def _registered(registry: dict[Any, Link], key: Hashable, link: Link) -> None:
    registry[key] = link
    for cached in _CACHED:
        cached.cache_clear()


def add(label: str, url_name: str, *, order: int) -> None:
    """List the page at the URL named ``url_name`` in the main menu as ``label``."""
    _registered(_menu, url_name, Link(label, url_name, order))


def add_account_link(label: str, url_name: str, *, order: int) -> None:
    """List a page of the signed-in visitor's own in the account menu."""
    _registered(_account, url_name, Link(label, url_name, order))


def add_footer_link(section: str, label: str, url_name: str, *, order: int) -> None:
    """List a page in the footer under the heading ``section``."""
    _registered(_footer, (section, url_name), Link(label, url_name, order, section=section))


def add_home_action(label: str, url_name: str, *, order: int) -> None:
    """A button in the home page's introduction; the lowest ``order`` is the main one."""
    _registered(_home_actions, url_name, Link(label, url_name, order))


def add_home_highlight(label: str, description: str, url_name: str, *, order: int) -> None:
    """A link with a line of description beside the home page's introduction."""
    _registered(_home_highlights, url_name, Link(label, url_name, order, description=description))


_contact: dict[str, str] = {}


def set_contact_page(url_name: str) -> None:
    """The page the shared pages send visitors to when they want to tell the site
    something (the accessibility statement's "tell us")."""
    _contact["url_name"] = url_name


def contact_url() -> str | None:
    return reverse(_contact["url_name"]) if _contact else None


def include(place: str, template_name: str, *, order: int) -> None:
    """Render ``template_name`` at ``place`` (one of ``PLACES``) of the shared templates."""
    if place not in _includes:
        raise ValueError(f"{place!r} is not a place of the shared templates: {PLACES}")
    _includes[place][template_name] = order
    for cached in _CACHED:
        cached.cache_clear()


def _in_order(links: Iterable[Link]) -> list[Link]:
    return sorted(links, key=lambda link: link.order)


def _linked(link: Link) -> dict[str, object]:
    return {"label": link.label, "url": reverse(link.url_name), "description": link.description}


@cache
def _menu_addresses() -> tuple[tuple[str, str], ...]:
    return tuple((link.label, reverse(link.url_name)) for link in _in_order(_menu.values()))


def menu(path: str) -> list[dict[str, object]]:
    """The entries for a page at ``path``: label, url and whether it is the current one."""
    return [
        {"label": label, "url": url, "current": path.startswith(url)}
        for label, url in _menu_addresses()
    ]


@cache
def account_links() -> tuple[dict[str, object], ...]:
    return tuple(_linked(link) for link in _in_order(_account.values()))


@cache
def footer_sections() -> tuple[dict[str, object], ...]:
    """Each section's heading, an id for it, and its links; sections in the order of their
    first link."""
    sections: dict[str, list[Link]] = {}
    for link in _in_order(_footer.values()):
        sections.setdefault(link.section, []).append(link)
    return tuple(
        {
            "heading": heading,
            "id": f"footer-{slugify(heading)}",
            "links": [_linked(link) for link in links],
        }
        for heading, links in sections.items()
    )


@cache
def home_actions() -> tuple[dict[str, object], ...]:
    return tuple(_linked(link) for link in _in_order(_home_actions.values()))


@cache
def home_highlights() -> tuple[dict[str, object], ...]:
    return tuple(_linked(link) for link in _in_order(_home_highlights.values()))


@cache
def includes() -> dict[str, tuple[str, ...]]:
    """The templates apps include at each place, in order."""
    return {
        place: tuple(sorted(names, key=names.__getitem__)) for place, names in _includes.items()
    }


_CACHED: "tuple[_lru_cache_wrapper[Any], ...]" = (
    _menu_addresses,
    account_links,
    footer_sections,
    home_actions,
    home_highlights,
    includes,
)
