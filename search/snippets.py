"""Safe highlighted text for result pages.

The database (``ts_headline``) or the fallback marks matches with two control characters
that indexed text never contains (``search.sources.clean`` removes them). The text is
HTML-escaped first and only then are the markers turned into ``<mark>`` elements, so the
only markup a snippet can ever carry is the ``<mark>`` asked for here.
"""

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from core.formatting import ELLIPSIS

START, STOP = "\x02", "\x03"
EXCERPT_CHARACTERS = 240


def marked_to_html(text: str) -> SafeString:
    """Text with START/STOP markers to HTML with <mark>; anything else is escaped."""
    escaped = str(escape(text or ""))
    # An unpaired marker (a cut-off fragment) must not leave an open element behind.
    html = re.sub(f"{START}([^{START}{STOP}]*){STOP}", r"<mark>\1</mark>", escaped)
    return mark_safe(html.replace(START, "").replace(STOP, ""))  # noqa: S308 - escaped above


def mark_words(text: str, words: list[str]) -> str:
    """Put markers around every case-insensitive occurrence of ``words`` in ``text``."""
    words = [w for w in words if w]
    if not words:
        return text
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.I)
    return pattern.sub(lambda match: f"{START}{match.group(0)}{STOP}", text)


def excerpt(text: str, words: list[str], length: int = EXCERPT_CHARACTERS) -> str:
    """About ``length`` characters of ``text`` around the first of ``words``, cut on
    spaces, with the words marked."""
    text = text or ""
    lowered = text.lower()
    found = [lowered.find(w.lower()) for w in words if w and w.lower() in lowered]
    first = min(found) if found else 0
    start = max(0, first - length // 3)
    end = min(len(text), start + length)
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < first else start
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > first else end
    piece = text[start:end].strip()
    piece = (
        (ELLIPSIS + " " if start > 0 else "") + piece + (" " + ELLIPSIS if end < len(text) else "")
    )
    return mark_words(piece, words)
