"""A readable diff between two versions of a governance document: of the text as readers
see it (the Markdown rendered, so no "##" or "*"), block by block (headings, paragraphs,
list items), and within a changed block word by word."""

import difflib
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.utils.html import strip_tags
from django.utils.text import slugify

from core.markdown import render_markdown

BLOCKS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "pre", "dt", "dd"}
WORDS = re.compile(r"\S+\s*")


@dataclass
class DiffLine:
    kind: str  # "same", "added", "removed" or "changed"
    text: str
    # A changed block, word by word: ("same" | "added" | "removed", text) pieces.
    parts: list[tuple[str, str]] = field(default_factory=list)


class _Headings(HTMLParser):
    """(anchor, text) of each h2-h4 of rendered HTML (the Markdown "toc" extension gives
    every heading its id)."""

    def __init__(self):
        super().__init__()
        self.headings: list[tuple[str, str]] = []
        self.current: list | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3", "h4"):
            self.current = [dict(attrs).get("id", ""), []]

    def handle_endtag(self, tag):
        if tag in ("h2", "h3", "h4") and self.current is not None:
            anchor, text = self.current[0], " ".join("".join(self.current[1]).split())
            if anchor and text:
                self.headings.append((anchor, text))
            self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current[1].append(data)


HEADING = re.compile(r"<(h[234])>(.*?)</\1>", re.S)


def section_anchor(heading_text: str) -> str:
    return "section-" + slugify(heading_text)


def sections(markdown: str) -> list[tuple[str, str]]:
    """The sections of a document a comment can point at: (anchor, heading text)."""
    parser = _Headings()
    parser.feed(with_section_anchors(render_markdown(markdown)))
    parser.close()
    return parser.headings


def with_section_anchors(html: str) -> str:
    """Rendered HTML with an id on each h2-h4 (``section_anchor`` of its text), the targets
    of the comments' links."""

    def anchor(match):
        text = " ".join(strip_tags(match.group(2)).split())
        return f'<{match.group(1)} id="{section_anchor(text)}">{match.group(2)}</{match.group(1)}>'

    return HEADING.sub(anchor, html)


class _BlockText(HTMLParser):
    """The text of each block element of rendered HTML, in order (nested lists: each item
    once, without the text of its sub-items)."""

    def __init__(self):
        super().__init__()
        self.blocks: list[str] = []
        self.open: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS:
            self.open.append([])

    def handle_endtag(self, tag):
        if tag in BLOCKS and self.open:
            text = " ".join("".join(self.open.pop()).split())
            if text:
                self.blocks.append(text)

    def handle_data(self, data):
        if self.open:
            self.open[-1].append(data)


def rendered_blocks(markdown: str) -> list[str]:
    parser = _BlockText()
    parser.feed(render_markdown(markdown))
    parser.close()
    return parser.blocks


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``old`` to ``new`` in pieces: kept words, removed words, added words."""
    old_words, new_words = WORDS.findall(old), WORDS.findall(new)
    matcher = difflib.SequenceMatcher(a=old_words, b=new_words, autojunk=False)
    parts = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(("same", "".join(old_words[i1:i2])))
            continue
        if tag in ("replace", "delete"):
            parts.append(("removed", "".join(old_words[i1:i2])))
        if tag in ("replace", "insert"):
            parts.append(("added", "".join(new_words[j1:j2])))
    return parts


def text_diff(old: str, new: str, context: int = 2) -> list[list[DiffLine]]:
    """Hunks of changed blocks with a little context. A block replaced by another is one
    "changed" line with its words marked; blocks only removed or added are whole lines."""
    old_blocks, new_blocks = rendered_blocks(old), rendered_blocks(new)
    matcher = difflib.SequenceMatcher(a=old_blocks, b=new_blocks, autojunk=False)
    hunks = []
    for group in matcher.get_grouped_opcodes(context):
        hunk = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk += [DiffLine("same", block) for block in old_blocks[i1:i2]]
                continue
            removed, added = old_blocks[i1:i2], new_blocks[j1:j2]
            paired = min(len(removed), len(added)) if tag == "replace" else 0
            for before, after in zip(removed[:paired], added[:paired], strict=True):
                hunk.append(DiffLine("changed", after, word_diff(before, after)))
            hunk += [DiffLine("removed", block) for block in removed[paired:]]
            hunk += [DiffLine("added", block) for block in added[paired:]]
        hunks.append(hunk)
    return hunks
