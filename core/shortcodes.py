"""Shortcodes that staff may put in Markdown, e.g. ``[[benchmark-chart jdbc-drivers qps]]``.

Apps register a handler for a name (in their ``AppConfig.ready``); the handler
receives the words after the name and returns trusted HTML. Expansion happens
after sanitising, on the sanitised text, so a shortcode can never smuggle HTML
of its own: only a registered handler's output is inserted. Unknown names are
left as they are.
"""

import re
from collections.abc import Callable

from django.utils.html import escape

SHORTCODE = re.compile(r"\[\[(?P<name>[a-z][a-z0-9-]*)(?P<args>(?:\s+[A-Za-z0-9_.:/-]+)*)\s*\]\]")
PARAGRAPH_SHORTCODE = re.compile(r"<p>\s*(" + SHORTCODE.pattern + r")\s*</p>")

_handlers: dict[str, Callable[..., str]] = {}


def register(name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    def decorator(handler: Callable[..., str]) -> Callable[..., str]:
        _handlers[name] = handler
        return handler

    return decorator


def expand(html: str) -> str:
    def replace(match: re.Match[str]) -> str:
        handler = _handlers.get(match.group("name"))
        if handler is None:
            return match.group(0)
        try:
            return handler(*match.group("args").split())
        except Exception as error:  # a broken embed must not break the page
            return f'<p class="notice">This embedded item is unavailable ({escape(error)}).</p>'

    # Group 1 is a whole shortcode, so it always matches.
    html = PARAGRAPH_SHORTCODE.sub(lambda m: replace(SHORTCODE.match(m.group(1))), html)  # type: ignore[arg-type]
    return SHORTCODE.sub(replace, html)
