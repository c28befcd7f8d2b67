"""What the search index holds: for each kind of public object, which objects the public
may see, and the title, summary, body text, address and date a search shows for one.

Each ``Source`` answers for one model; the apps register theirs from their
``AppConfig.ready()`` (``register``, in ``<app>/search_sources.py``), so search names no
app. ``DEPENDENTS`` says which indexed object a save of another model changes (a new
version changes its governance document's entry).
"""

import datetime
import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db import models
from django.urls import reverse
from django.utils.html import strip_tags

from core.markdown import render_markdown
from core.shortcodes import SHORTCODE
from search.models import SearchDocument

Kind = SearchDocument.Kind
# Control characters never belong in indexed text (and \x02/\x03 mark highlights).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
WHITESPACE = re.compile(r"\s+")
TITLE_LENGTH = SearchDocument._meta.get_field("title").max_length


def plain_text(markdown_text: str) -> str:
    """The words of staff-written Markdown, without markup, embeds or control characters."""
    if not markdown_text or markdown_text.isspace():
        return ""
    text = html.unescape(strip_tags(render_markdown(SHORTCODE.sub(" ", markdown_text))))
    return clean(text)


def clean(text: str) -> str:
    return WHITESPACE.sub(" ", CONTROL_CHARACTERS.sub(" ", text or "")).strip()


def object_key(model: type[models.Model], pk) -> str:
    return f"{model._meta.label_lower}:{pk}"


@dataclass(frozen=True)
class Entry:
    title: str
    url: str
    summary: str = ""
    body: str = ""
    date: datetime.date | None = None
    visible_from: datetime.datetime | None = None
    exact_name: str = ""


@dataclass(frozen=True)
class Source:
    model: type[models.Model]
    kind: str
    public: Callable[[], models.QuerySet]
    describe: Callable[[models.Model], Entry]

    def document(self, obj) -> SearchDocument:
        entry = self.describe(obj)
        return SearchDocument(
            key=object_key(self.model, obj.pk),
            kind=self.kind,
            title=clean(entry.title)[:TITLE_LENGTH],
            summary=clean(entry.summary),
            body=clean(entry.body),
            url=entry.url,
            date=entry.date,
            visible_from=entry.visible_from,
            exact_name=entry.exact_name,
        )


# Filled by the apps (``register``), in the order they register: the kinds of the index.
SOURCES: list[Source] = []
SOURCE_FOR: dict[type[models.Model], Source] = {}
# A save or delete of these models changes the entry of another object: (model, its pk).
DEPENDENTS: dict[type[models.Model], Callable[[models.Model], tuple[type[models.Model], int]]] = {}


def register(source: Source, *, dependents=None) -> None:
    """Index ``source``'s objects; ``dependents`` maps models whose saves change one of
    them to a function giving (``source.model``, that object's pk)."""
    if source.model in SOURCE_FOR:
        raise ValueError(f"{source.model._meta.label} is already a search source")
    SOURCES.append(source)
    SOURCE_FOR[source.model] = source
    DEPENDENTS.update(dependents or {})


# The words people use when they look for how to give money: every page that takes or
# accounts for money (/donate/, /sponsors/, /funding/) is found by each of them.
MONEY_WORDS = (
    "donate donation donations give gift money pay payment fund funding funds support "
    "sponsor sponsorship contribute contribution finances"
)


@dataclass(frozen=True)
class Page:
    """A fixed page (one the sitemap lists by URL name, not a row): its title, a summary
    and the words a visitor would search it by, written by the app that serves it. The
    summary is the page's own description, what a result shows; the words are only
    searched, never shown (search.query)."""

    url_name: str
    title: str
    summary: str
    words: str = ""

    def document(self) -> SearchDocument:
        return SearchDocument(
            key=f"page:{self.url_name}",
            kind=Kind.PAGE,
            title=clean(self.title)[:TITLE_LENGTH],
            summary=clean(self.summary),
            body=clean(self.words),
            url=reverse(self.url_name),
        )


# The fixed pages of the site, by URL name; core's own pages (it names no app, and search
# is above it) are described here, the apps add theirs with ``register_pages``.
PAGES: dict[str, Page] = {
    page.url_name: page
    for page in [
        Page(
            "home",
            "MariaDB Foundation",
            "The home of the MariaDB community: the latest "
            "releases, news and how to support the foundation.",
            "home page start latest release news open source database",
        ),
        Page(
            "accessibility",
            "Accessibility",
            "How this site is built to be usable by "
            "everyone, what is known not to work yet, and how to report a problem.",
            "accessibility statement screen reader keyboard contrast WCAG report a problem",
        ),
    ]
}


def register_pages(*pages: Page) -> None:
    """Index the fixed pages an app serves (from its ``AppConfig.ready()``)."""
    for page in pages:
        if page.url_name in PAGES:
            raise ValueError(f"{page.url_name} is already a search page")
        PAGES[page.url_name] = page
