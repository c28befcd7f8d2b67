"""The structure of a rendered article, read with the standard library's HTML parser."""

from html.parser import HTMLParser


class Outline(HTMLParser):
    """Headings, lists, tables and figures inside the page's ``<article class="prose">``."""

    def __init__(self, html: str):
        super().__init__()
        self.depth = 0  # > 0 while inside the article
        self.headings: list[str] = []
        self.list_starts: list[tuple[str, str]] = []  # ("ol", start) or ("ul", "")
        self.tables: list[dict] = []
        self.captions: list[str] = []
        self.text: list[str] = []
        self._open: list[str] = []
        self._buffer: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article" and "prose" in (attrs.get("class") or ""):
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "article":
            self.depth += 1
        if tag in {"h2", "h3", "h4", "h5", "h6", "figcaption", "caption"}:
            self._buffer = []
            self._open.append(tag)
        elif tag in {"ol", "ul"}:
            self.list_starts.append((tag, attrs.get("start") or ""))
        elif tag == "table":
            self.tables.append({"rows": 0, "cells": 0, "caption": ""})
        elif tag == "tr":
            self.tables[-1]["rows"] += 1
        elif tag in {"td", "th"} and self.tables:
            self.tables[-1]["cells"] += 1

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag == "article":
            self.depth -= 1
        if self._open and tag == self._open[-1]:
            self._open.pop()
            text = " ".join("".join(self._buffer or []).split())
            self._buffer = None
            if tag == "figcaption":
                self.captions.append(text)
            elif tag == "caption":
                self.tables[-1]["caption"] = text
            else:
                self.headings.append(f"{tag}:{text}")

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)
            if self._buffer is not None:
                self._buffer.append(data)
