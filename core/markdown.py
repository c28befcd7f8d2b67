"""Markdown to safe HTML for everything that staff or users write.

Markdown is rendered first, then the HTML is cleaned with nh3 (an allow-list
sanitiser), so raw HTML, scripts, event handlers and javascript: links that
someone types into Markdown never reach a page.

Two profiles:

- staff content (news, governance documents, release notes, minutes) may use
  headings, tables, ``class`` for code highlighting and images, but only images
  served by the site itself: a remote image would tell another server who reads
  the page;
- comments (``render_comment``) are strict: no images or anything else that
  loads from elsewhere, no ``class`` or ``style`` (so a comment cannot borrow the
  site's own notice styles), no headings, and every link gets
  ``rel="nofollow ugc noopener"``.
"""

import html as html_lib
import re
import threading
import unicodedata
from urllib.parse import urlsplit

import markdown as markdown_lib
import nh3
from django.conf import settings

from core.shortcodes import expand

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "div", "dl", "dt",
    "em", "figcaption", "figure", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li",
    "ol", "p", "pre", "s", "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title", "width", "height"},
    "ol": {"start"},
    "th": {"align", "scope"},
    "td": {"align"},
    "code": {"class"},
    "div": {"class"},
    "span": {"class"},
}
COMMENT_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em", "hr", "i",
    "kbd", "li", "ol", "p", "pre", "s", "strong", "sub", "sup", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
COMMENT_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "th": {"align", "scope"},
    "td": {"align"},
}
URL_SCHEMES = {"http", "https", "mailto"}
COMMENT_LINK_REL = "nofollow ugc noopener"
EXTENSIONS = ["extra", "sane_lists", "smarty", "toc"]
TABLE = re.compile(r"<table>.*?</table>", re.S)


def render_markdown(text: str, *, shortcodes: bool = False) -> str:
    """Staff-written Markdown to sanitised HTML; ``shortcodes=True`` expands embeds."""
    html = scrollable_tables(sanitise_html(_to_html(text)))
    if shortcodes:
        html = expand(html)
    return html


def render_comment(text: str) -> str:
    """A reader's comment: Markdown to HTML under the strict comment profile."""
    return scrollable_tables(
        nh3.clean(
            _to_html(text),
            tags=COMMENT_TAGS,
            attributes=COMMENT_ATTRIBUTES,
            url_schemes=URL_SCHEMES,
            link_rel=COMMENT_LINK_REL,
        )
    )


def has_visible_text(html: str) -> bool:
    """True when sanitised HTML shows a reader any text: markup alone (an empty
    paragraph, a rule, a link without words), spaces and invisible formatting
    characters such as zero-width spaces do not count."""
    text = html_lib.unescape(nh3.clean(html, tags=set()))
    return any(not char.isspace() and unicodedata.category(char) != "Cf" for char in text)


def scrollable_tables(html: str) -> str:
    """Each table in a labelled region that keyboard users can focus and scroll, so a
    wide table scrolls on its own on a phone instead of widening the page. Runs on
    sanitised HTML, where tables cannot nest and every <table> is closed."""
    return TABLE.sub(
        lambda match: (
            '<div class="table-wrap" role="region" tabindex="0" aria-label="Table">'
            f"{match.group(0)}</div>"
        ),
        html,
    )


def sanitise_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        attribute_filter=_only_local_images,
    )


def is_site_url(url: str) -> bool:
    """True for an address on this site: relative, or absolute on SITE_URL's origin."""
    if "\\" in url or any(ord(char) < 0x20 for char in url):
        return False  # browsers read "/\host" as "//host"
    parts = urlsplit(url)
    if not parts.scheme and not parts.netloc:
        return not url.startswith("//")
    site = urlsplit(settings.SITE_URL)
    return (parts.scheme, parts.netloc) == (site.scheme, site.netloc)


def _only_local_images(element: str, attribute: str, value: str) -> str | None:
    if element == "img" and attribute == "src" and not is_site_url(value):
        return None
    return value


# A Markdown converter takes longer to build (its extensions) than a post takes to convert;
# one per thread, since a converter keeps state while it converts.
_converters = threading.local()


def _to_html(text: str) -> str:
    converter = getattr(_converters, "markdown", None)
    if converter is None:
        converter = _converters.markdown = markdown_lib.Markdown(
            extensions=EXTENSIONS, output_format="html"
        )
    return converter.reset().convert(text or "")
