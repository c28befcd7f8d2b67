"""Safe highlighted text for result pages.

The database (``ts_headline``) marks matches with two control characters
that indexed text never contains (``search.sources.clean`` removes them). The text is
HTML-escaped first and only then are the markers turned into ``<mark>`` elements, so the
only markup a snippet can ever carry is the ``<mark>`` asked for here.
"""

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

START, STOP = "\x02", "\x03"


def marked_to_html(text: str) -> SafeString:
    """Text with START/STOP markers to HTML with <mark>; anything else is escaped."""
    escaped = str(escape(text or ""))
    # An unpaired marker (a cut-off fragment) must not leave an open element behind.
    html = re.sub(f"{START}([^{START}{STOP}]*){STOP}", r"<mark>\1</mark>", escaped)
    return mark_safe(html.replace(START, "").replace(STOP, ""))  # noqa: S308 - escaped above
