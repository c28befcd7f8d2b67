"""The seed documents (plain text copied out of web pages) as Markdown.

Copying a web page to plain text keeps the words but drops the markup: headings
become short lines, list items keep their bullet character or number, an image
leaves its caption and its alternative text on two lines, and a table leaves its
cells either one per line or one row per line. This module reads that structure
back without changing a word of the text:

- a short numbered line ("2.1. Execution") is a heading whose depth is the depth
  of its number; another short standalone line followed by text is a heading too;
- "•" lines are list items (nested by indentation), indented "3." lines are
  ordered items that keep their number;
- a caption followed by lower-case alternative text ("throughput read") is a
  figure whose image did not survive the copy;
- "Example N. ..." introduces a code listing, "Table N. ..." a table; lines
  of ``key = value`` settings and ``#`` comments are a configuration listing;
- tables whose layout the text cannot tell are described in ``TABLE_LAYOUTS``
  (where they start and how many columns they have).
"""

import re
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class TableLayout:
    start: str  # how the table's first line begins
    columns: int
    one_cell_per_line: bool = False  # else one row per line, cells split on spaces
    rows: int = 0  # for one cell per line: how many rows, header included


TABLE_LAYOUTS = (
    TableLayout("*Instance Family", columns=8, one_cell_per_line=True, rows=2),
    TableLayout("time spent / resulting size (GB)", columns=4),
    TableLayout("time spent RocksDB TokuDB", columns=3),
)

BULLET = re.compile(r"^(\s*)[•·]\s+(.*)$")
ORDERED = re.compile(r"^(\s+)(\d+)\.\s+(.*)$")
NUMBERED_HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.\s+(\S.*)$")
FIGURE_ALT = re.compile(r"^[a-z]+(?: [a-z]+){0,5}$")
SETTING = re.compile(r"^(#.*|[\w.-]+\s*=\s*.*)$")
EXAMPLE = re.compile(r"^Example \d+\.\s")
TABLE_CAPTION = re.compile(r"^Table \d+\.\s")
# a cell in a row split on spaces: "20h24 / 50.6", one word, or a no-break space (empty)
CELL = r" (\S+ / \S+|\S+|\xa0)"
TITLE_MAX = 80
MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]])")


def to_markdown(text: str) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    numbered = any(_numbered_heading(line) for line in lines)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        layout = _layout_for(lines[i])
        if layout:
            html, i = _table(lines, i, layout)
            out.append(html)
            continue
        end = _block_end(lines, i)
        # a paragraph that runs straight into a list ends where the list starts
        end = next((n for n in range(i + 1, end) if _list_line(lines[n])), end)
        block = lines[i:end]
        following = _next_block(lines, end)
        first = block[0].strip()
        if all(_list_line(line) for line in block):
            items, i = _list(lines, i)
            out.append(items)
            continue
        if all(SETTING.match(line.strip()) for line in block):
            listing, i = _settings(lines, i)
            out.append(listing)
            continue
        if EXAMPLE.match(first) and len(block) > 1:
            listing, i = _example(lines, i)
            out.append(listing)
            continue
        if TABLE_CAPTION.match(first) and len(block) > 1:
            out.append(_captioned_table(block))
            i = end
            continue
        if len(block) == 1 and FIGURE_ALT.match(first):
            out.append(_figure("", first))
            i = end
            continue
        heading = _numbered_heading(first)
        if len(block) == 1 and heading:
            number, title = heading
            level = min(number.count(".") + 2, 6)
            out.append("#" * level + " " + _inline(f"{number}. {title}", line_start=False))
            i = end
            continue
        if len(block) == 1 and _is_title(first) and following is not None:
            next_block = lines[following : _block_end(lines, following)]
            if len(next_block) == 1 and FIGURE_ALT.match(next_block[0].strip()):
                out.append(_figure(first, next_block[0].strip()))
                i = _block_end(lines, following)
                continue
            if not numbered:
                out.append("## " + _inline(first))
                i = end
                continue
        if len(block) == 2 and _is_title(first) and not _is_title(block[1].strip()):
            # a titled note: "No auto-commit" and its explanation
            out.append("**" + _inline(first) + "**\n\n" + _inline(block[1].strip()))
            i = end
            continue
        out.append("\n".join(_inline(line.strip()) for line in block))
        i = end
    return "\n\n".join(out).strip() + "\n"


def first_paragraph(text: str, min_length: int = 60) -> str:
    """The seed's first line of running text (not a heading, list item or listing)."""
    for line in text.splitlines():
        line = line.strip()
        if len(line) > min_length and not _list_line(line) and not _is_title(line):
            return line
    return ""


def _numbered_heading(line: str) -> tuple[str, str] | None:
    match = NUMBERED_HEADING.match(line)
    if match and _is_title(line):
        return match.group(1), match.group(2)
    return None


def _is_title(line: str) -> bool:
    line = line.strip()
    return (
        0 < len(line) <= TITLE_MAX
        and (line[0].isupper() or line[0].isdigit())
        and line[-1] not in ".,;:!"
        and "://" not in line
    )


def _list_line(line: str) -> bool:
    return bool(BULLET.match(line) or ORDERED.match(line))


def _block_end(lines: list[str], start: int) -> int:
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return end


def _next_block(lines: list[str], start: int) -> int | None:
    while start < len(lines):
        if lines[start].strip():
            return start
        start += 1
    return None


def _inline(text: str, *, line_start: bool = True) -> str:
    """Plain text that Markdown must print as it is."""
    text = MARKDOWN_SPECIALS.sub(r"\\\1", text)
    text = text.replace("<", "&lt;")
    if not line_start:
        return text
    return re.sub(r"^(#+|>|[-+]\s|\d+\.\s)", r"\\\1", text)


def _list(lines: list[str], i: int) -> tuple[str, int]:
    """Consecutive list lines, blank lines between items included, as one list."""
    items = []
    while i < len(lines) and (not lines[i].strip() or _list_line(lines[i])):
        line = lines[i]
        i += 1
        if not line.strip():
            following = _next_block(lines, i)
            if following is None or not _list_line(lines[following]):
                break
            continue
        bullet = BULLET.match(line)
        if bullet:
            depth = max(len(bullet.group(1)) // 2 - 1, 0)
            items.append("    " * depth + "- " + _inline(bullet.group(2)))
        else:
            ordered = ORDERED.match(line)
            assert ordered is not None  # the loop takes only bullet or numbered lines
            items.append(f"{ordered.group(2)}. " + _inline(ordered.group(3)))
    return "\n".join(items), i


def _settings(lines: list[str], i: int) -> tuple[str, int]:
    """A configuration file's lines, its blank lines included, as a code block."""
    body: list[str] = []
    while i < len(lines):
        line = lines[i].strip()
        if line and not SETTING.match(line):
            break
        if not line:
            following = _next_block(lines, i)
            if following is None or not SETTING.match(lines[following].strip()):
                break
        body.append(line)
        i += 1
    return "<pre><code>" + escape("\n".join(body).strip(), quote=False) + "</code></pre>", i


def _example(lines: list[str], i: int) -> tuple[str, int]:
    """ "Example N. caption" then a statement, up to the line that ends it with ";"."""
    caption = lines[i].strip()
    body = []
    i += 1
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line:
            body.append(line)
            if line.endswith(";"):
                break
    code = escape("\n".join(body), quote=False)
    return (
        f"<figure><figcaption>{escape(caption, quote=False)}</figcaption>"
        f"<pre><code>{code}</code></pre></figure>",
        i,
    )


def _figure(caption: str, alt: str) -> str:
    figcaption = f"<figcaption>{escape(caption, quote=False)}</figcaption>" if caption else ""
    return (
        f'<figure><div class="figure-missing">{escape(alt, quote=False)}</div>{figcaption}</figure>'
    )


def _layout_for(line: str) -> TableLayout | None:
    return next((t for t in TABLE_LAYOUTS if line.strip().startswith(t.start)), None)


def _cell(text: str) -> str:
    return escape(text.strip(" *\xa0"), quote=False)


def _table(lines: list[str], i: int, layout: TableLayout) -> tuple[str, int]:
    if layout.one_cell_per_line:
        cells, i = _cells_one_per_line(lines, i, layout.columns * layout.rows)
        rows = [cells[n : n + layout.columns] for n in range(0, len(cells), layout.columns)]
    else:
        row = re.compile(r"^(.+?)" + CELL * (layout.columns - 1) + "$")
        rows = []
        while (
            i < len(lines) and not _list_line(lines[i]) and (match := row.match(lines[i].strip()))
        ):
            rows.append(list(match.groups()))
            i += 1
    return _table_html(rows, ""), i


def _cells_one_per_line(lines: list[str], i: int, count: int) -> tuple[list[str], int]:
    """Cells one per line, one blank line between them; each further blank line is an
    empty cell."""
    cells = [lines[i]]
    i += 1
    while len(cells) < count and i < len(lines):
        blanks = 0
        while i < len(lines) and not lines[i].strip():
            blanks += 1
            i += 1
        cells.extend([""] * min(max(blanks - 1, 0), count - len(cells)))
        if len(cells) < count and i < len(lines):
            cells.append(lines[i])
            i += 1
    return cells, i


def _captioned_table(block: list[str]) -> str:
    rows = [line.split() for line in block[1:]]
    return _table_html(rows, block[0].strip())


def _table_html(rows: list[list[str]], caption: str) -> str:
    header, body = rows[0], rows[1:]
    html = ["<table>"]
    if caption:
        html.append(f"<caption>{escape(caption, quote=False)}</caption>")
    html.append(
        "<thead><tr>"
        + "".join(f'<th scope="col">{_cell(c)}</th>' if _cell(c) else "<td></td>" for c in header)
        + "</tr></thead>"
    )
    if body:
        html.append("<tbody>")
        for row in body:
            html.append(
                f'<tr><th scope="row">{_cell(row[0])}</th>'
                + "".join(f"<td>{_cell(c)}</td>" for c in row[1:])
                + "</tr>"
            )
        html.append("</tbody>")
    html.append("</table>")
    return "".join(html)
