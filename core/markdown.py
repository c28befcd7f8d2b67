"""Markdown to safe HTML for everything that staff or users write.

Markdown is rendered first, then the HTML is cleaned with nh3 (an allow-list
sanitiser), so raw HTML, scripts, event handlers and javascript: links that
someone types into Markdown never reach a page.
"""

import markdown as markdown_lib
import nh3

from core.shortcodes import expand

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
    "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s",
    "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title", "width", "height"},
    "th": {"align", "scope"},
    "td": {"align"},
    "code": {"class"},
    "div": {"class"},
    "span": {"class"},
}
EXTENSIONS = ["extra", "sane_lists", "smarty", "toc"]


def render_markdown(text: str, *, shortcodes: bool = False) -> str:
    """Markdown to sanitised HTML; ``shortcodes=True`` (staff content only) expands embeds."""
    html = sanitise_html(
        markdown_lib.markdown(text or "", extensions=EXTENSIONS, output_format="html")
    )
    if shortcodes:
        html = expand(html)
    return html


def sanitise_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
