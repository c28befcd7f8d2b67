"""Server-rendered chart images (SVG and PNG) from the same spec as the page's chart, for
READMEs, mails and feeds. matplotlib's object API with the Agg canvas: no pyplot state, so
it is safe in threaded workers."""

import io
import re
from typing import Any

# The light scheme's --chart-N colours of static/css/site.css, in the order
# static/js/benchmarks.js uses them, so an image matches the chart on the page
# (tests/core/test_chart_contrast.py keeps the two in step).
PALETTE = [
    "#0072b2",
    "#b87800",
    "#009e73",
    "#cc79a7",
    "#2b8cc4",
    "#d55e00",
    "#8c7e00",
    "#7f7f7f",
    "#000000",
]
STYLE = {
    "svg.hashsalt": "benchmarks",  # stable element ids: the same chart gives the same bytes
    "svg.fonttype": "none",  # text stays text: searchable, selectable, small
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
VERSION = "6"  # part of the image cache key and ETag: change it when the drawing changes


FOOTER_LINE_INCHES = 0.17


def render(spec: dict, fmt: str, width: float = 7.2, height: float = 4.2) -> bytes:
    """The chart, and below it the spec's ``context`` lines (suite, runs, machine, date,
    the page's address) in small type."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown image format {fmt!r}")
    # Imported when a chart is drawn, not when the site starts: matplotlib and numpy add
    # about 0.35 s to every process's start (web, worker, manage.py), most of which never
    # draw one (docs/PERFORMANCE.md, "Start-up").
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine
    from matplotlib.ticker import StrMethodFormatter

    context = spec.get("context") or []
    footer = (len(context) * FOOTER_LINE_INCHES + 0.08) if context else 0
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(width, height + footer), dpi=100, layout="constrained")
        if context:
            share = footer / (height + footer)
            engine = figure.get_layout_engine()
            if isinstance(engine, ConstrainedLayoutEngine):  # layout="constrained" above
                engine.set(rect=(0, share, 1, 1 - share))
            figure.text(
                0.01,
                0.01,
                "\n".join(context),
                fontsize=7.5,
                color="#444444",
                va="bottom",
                ha="left",
                linespacing=1.5,
            )
        axes = figure.add_subplot()
        if spec["type"] == "line":
            _lines(axes, spec)
        else:
            _bars(axes, spec)
        axes.set_title(f"{spec['title']}\n{spec['subtitle']}", loc="left", fontsize=11)
        values = [
            v
            for d in spec["datasets"]
            for v in [*d["data"], *(d.get("high") or [])]
            if v is not None
        ]
        thousands = StrMethodFormatter("{x:,.0f}") if values and max(values) >= 1000 else None
        if spec["type"] == "line":
            if thousands:
                axes.yaxis.set_major_formatter(thousands)
            axes.set_ylabel(spec.get("unit") or "")
            axes.set_xlabel(spec.get("x_title") or "")
            axes.set_ylim(bottom=0)
            axes.grid(axis="y", color="#dddddd", linewidth=0.6)
        else:
            if thousands:
                axes.xaxis.set_major_formatter(thousands)
            axes.set_xlabel(spec.get("unit") or "")
            axes.set_xlim(left=0)
            axes.grid(axis="x", color="#dddddd", linewidth=0.6)
        axes.set_axisbelow(True)
        output = io.BytesIO()
        metadata = {"Date": None} if fmt == "svg" else {}
        figure.savefig(output, format=fmt, metadata=metadata, dpi=150 if fmt == "png" else 100)
        return without_inline_styles(output.getvalue()) if fmt == "svg" else output.getvalue()


# The site's Content-Security-Policy (style-src 'self') applies to an SVG opened on its
# own: matplotlib's <style> element and style="" attributes would be refused and the
# chart drawn black on transparent. Every property it writes is also an SVG
# presentation attribute, which no CSP governs; the document-wide rule becomes
# attributes of the root element, which its children inherit unless they set their own.
PRESENTATION_ATTRIBUTES = frozenset(
    [
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-opacity",
        "stroke-miterlimit",
        "opacity",
        "font-family",
        "font-size",
        "font-style",
        "font-weight",
        "font-variant",
        "font-stretch",
        "text-anchor",
        "clip-path",
    ]
)
STYLE_ELEMENT = re.compile(rb"\s*<style type=\"text/css\">\*\{([^}<]*)\}</style>")
STYLE_ATTRIBUTE = re.compile(rb' style="([^"]*)"')


def _attributes(declarations: bytes) -> bytes:
    attributes = []
    for declaration in declarations.decode().split(";"):
        if not declaration.strip():
            continue
        name, _, value = (part.strip() for part in declaration.partition(":"))
        if name not in PRESENTATION_ATTRIBUTES or '"' in value:
            raise ValueError(f"matplotlib wrote a style the chart cannot carry: {declaration!r}")
        attributes.append(f' {name}="{value}"')
    return "".join(attributes).encode()


def without_inline_styles(svg: bytes) -> bytes:
    """matplotlib's SVG with presentation attributes instead of CSS."""
    rule = STYLE_ELEMENT.search(svg)
    svg = STYLE_ELEMENT.sub(b"", svg)
    svg = STYLE_ATTRIBUTE.sub(lambda match: _attributes(match.group(1)), svg)
    if rule:
        svg = re.sub(rb"<svg ", b"<svg" + _attributes(rule.group(1)) + b" ", svg, count=1)
    if b"<style" in svg or b" style=" in svg:
        raise ValueError("matplotlib wrote styles this conversion does not know")
    return svg


def _lines(axes, spec):
    positions = list(range(len(spec["labels"])))
    for index, dataset in enumerate(spec["datasets"]):
        colour = PALETTE[dataset.get("colour", index) % len(PALETTE)]
        points = [(p, v) for p, v in zip(positions, dataset["data"], strict=True) if v is not None]
        if not points:
            continue
        xs, ys = zip(*points, strict=True)
        axes.plot(
            xs, ys, marker="o", markersize=3.5, linewidth=1.8, color=colour, label=dataset["label"]
        )
        band = [
            (p, lo, hi)
            for p, lo, hi in zip(
                positions, dataset.get("low") or [], dataset.get("high") or [], strict=False
            )
            if lo is not None and hi is not None
        ]
        segment: list[tuple[int, Any, Any]] = []
        for point in [*band, None]:  # a gap in the band (no estimate yet) is left empty
            if point is not None and (not segment or point[0] == segment[-1][0] + 1):
                segment.append(point)
                continue
            if segment:
                bx, low, high = zip(*segment, strict=True)
                axes.fill_between(bx, low, high, color=colour, alpha=0.18, linewidth=0)
            segment = [point] if point is not None else []
    for line in spec.get("marks", []):
        axes.axvline(line, color="#D55E00", linestyle="--", linewidth=1)
    for line in spec.get("environment_marks", []):  # the environment changed before this run
        axes.axvline(line - 0.5, color="#555555", linestyle=":", linewidth=1.2)
        axes.annotate(
            "environment changed",
            (line - 0.5, 1),
            xycoords=("data", "axes fraction"),
            rotation=90,
            va="top",
            ha="right",
            fontsize=7,
            color="#444444",
        )
    crowded = sum(len(label) for label in spec["labels"]) > 70
    axes.set_xticks(
        positions,
        spec["labels"],
        rotation=45 if crowded else 0,
        ha="right" if crowded else "center",
    )
    if len(spec["datasets"]) > 1:
        axes.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.3 if crowded else -0.16),
            ncols=min(3, len(spec["datasets"])),
            frameon=False,
            fontsize=8,
        )


def _bars(axes, spec):
    dataset = spec["datasets"][0]
    positions = list(range(len(spec["labels"])))
    values = [v or 0 for v in dataset["data"]]
    errors = None
    if any(lo is not None for lo in dataset.get("low") or []):
        errors = [
            [
                v - (lo if lo is not None else v)
                for v, lo in zip(values, dataset["low"], strict=True)
            ],
            [
                (hi if hi is not None else v) - v
                for v, hi in zip(values, dataset["high"], strict=True)
            ],
        ]
    axes.barh(positions, values, xerr=errors, color=PALETTE[0], height=0.6)
    axes.set_yticks(
        positions, [label if len(label) < 40 else label[:38] + "…" for label in spec["labels"]]
    )
    axes.invert_yaxis()
