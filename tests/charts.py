"""What a person sees of a chart drawn on a canvas: its pixels, never the chart library's
idea of what it drew.

A browser test that asks Chart.js for a bar's width and height judges the library's
bookkeeping (a withheld column had a width and a height of NaN, and counted as "drawn"
though nothing showed). These helpers read the canvas itself (``getImageData``) in the
area of one column or row of a bar chart and say where a colour is painted in it. The
library is asked only where the column is (its scales), so that the right pixels are read.
"""

from dataclasses import dataclass

# Where ``colour`` is painted in the band of category ``index`` of a bar chart: for each
# row of pixels across the band (each column of pixels, for a horizontal chart), counted
# from the value axis's zero outwards in CSS pixels, how many pixels of the band are that
# colour. A pixel is the colour when its red, green and blue are each within TOLERANCE of
# it and it is not (nearly) transparent: antialiased edges and the faded bar of a period
# still under way count, other colours and the grid lines do not.
PAINTED = """([chartId, index, colour, tolerance]) => {
    const chart = window.portalCharts[chartId];
    const horizontal = chart.options.indexAxis === "y";
    const category = horizontal ? chart.scales.y : chart.scales.x;
    const value = horizontal ? chart.scales.x : chart.scales.y;
    const area = chart.chartArea;
    const ratio = chart.canvas.width / chart.canvas.clientWidth;
    const centre = category.getPixelForValue(index);
    const step = (horizontal ? area.bottom - area.top : area.right - area.left)
        / chart.data.labels.length;
    const half = Math.max(1, step * 0.3);  // inside the bar's own part of its category
    const base = value.getPixelForValue(0);
    const [x0, y0, x1, y1] = horizontal
        ? [base, centre - half, area.right, centre + half]
        : [centre - half, area.top, centre + half, base];
    const left = Math.floor(x0 * ratio), top = Math.floor(y0 * ratio);
    const width = Math.max(1, Math.ceil((x1 - x0) * ratio));
    const height = Math.max(1, Math.ceil((y1 - y0) * ratio));
    const pixels = chart.ctx.getImageData(left, top, width, height).data;
    const hex = colour.replace("#", "");
    const want = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
    const rows = {};
    for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
            const at = 4 * (y * width + x);
            if (pixels[at + 3] < 64) continue;
            if (want.some((c, k) => Math.abs(pixels[at + k] - c) > tolerance)) continue;
            // distance from the zero of the value axis, in CSS pixels
            const away = horizontal
                ? Math.floor(x / ratio)
                : Math.floor((height - 1 - y) / ratio);
            rows[away] = (rows[away] || 0) + 1;
        }
    }
    return {rows, across: Math.round(2 * half)};
}"""

TOLERANCE = 24


@dataclass(frozen=True)
class Painted:
    """Where one colour shows in one category's band: ``rows`` maps a distance from the
    value axis's zero (CSS px) to the number of device pixels of that colour there;
    ``across`` is the band's width in CSS px."""

    rows: dict[int, int]
    across: int

    @property
    def reach(self) -> int:
        """How far from the axis the colour shows (0: not at all)."""
        return max(self.rows, default=-1) + 1

    def beyond(self, distance: int) -> int:
        """Pixels of the colour farther than ``distance`` CSS px from the axis."""
        return sum(count for away, count in self.rows.items() if away >= distance)


def painted(page, chart_id: str, index: int, colour: str) -> Painted:
    """Where ``colour`` (``#rrggbb``) shows in category ``index`` of the bar chart
    ``window.portalCharts[chart_id]`` on ``page``, as a person looking at it sees."""
    found = page.evaluate(PAINTED, [chart_id, index, colour, TOLERANCE])
    return Painted(rows={int(k): v for k, v in found["rows"].items()}, across=found["across"])
