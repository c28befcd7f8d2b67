import pytest

from tests import charts
from tests.artifacts import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABELS = """Object.values(window.portalCharts)
    .filter((chart) => chart.options.indexAxis === "y")
    .flatMap((chart) => chart.scales.y.ticks.map((tick) => [].concat(tick.label).join("")))"""
TICK_LINES = """Object.values(window.portalCharts)
    .filter((chart) => chart.options.indexAxis === "y")
    .flatMap((chart) => chart.scales.y.ticks.flatMap((tick) => [].concat(tick.label)))"""


def charts_render_with_their_tables(live_server, page, screenshot):
    page.goto(live_server.url + "/feedback/?period=week")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    charts = page.evaluate("Object.keys(window.portalCharts)")
    assert {
        "active",
        "series",
        "b-os",
        "b-distribution",
        "s-plugin",
        "s-feature",
        "eol",
        "adoption",  # demo servers run real catalogue releases, so adoption is charted
    } <= set(charts)
    figures = page.locator("figure.chart-figure")
    # every chart has its table, or the sentence saying when its table will fill in
    assert figures.locator("table, p.table-empty").count() == figures.count()
    assert figures.locator("p.downloads a").count() == 2 * figures.count()
    screenshot("usage-dashboard-1280", full_page=True)
    # the pictures in docs/usage-trends.md (docs/img/ holds copies of these)
    for chart in ("adoption", "b-cpu"):
        figure = page.locator(f"#chart-{chart}")
        figure.screenshot(path=str(ARTIFACTS / f"usage-{chart}-1280.png"))


def on_a_phone_labels_wrap_instead_of_being_cut(live_server, page, screenshot):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/feedback/?window=90d")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    lines = page.evaluate(TICK_LINES)
    assert lines and max(len(line) for line in lines) <= 14
    assert "Debian 12" in lines  # a drill-down label shown whole
    # long names are wrapped, never cut: their lines put together give the whole name
    labels = page.evaluate(LABELS)
    # each bar's label carries its share beside the name, "utf8mb3_general_ci (100.0%)",
    # wrapped at the space (the lines are joined without it here)
    for name in ("utf8mb3_general_ci", "CHECK_CONSTRAINT"):
        assert any(label.startswith(f"{name}(") and label.endswith("%)") for label in labels)
    screenshot("usage-dashboard-390", full_page=True)
    page.locator("#chart-adoption").screenshot(path=str(ARTIFACTS / "usage-adoption-390.png"))


def at_320_px_nothing_is_wider_than_the_screen(live_server, page, screenshot, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 320, "height": 720})
    page.goto(live_server.url + "/feedback/")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    wider = page.evaluate(
        """[...document.querySelectorAll("main *")]
            .filter((el) => el.getBoundingClientRect().right > 321
                            && !el.closest(".table-wrap, details:not([open])"))
            .map((el) => el.tagName + "." + el.className)"""
    )
    assert wider == []
    # the key figures come first, then the contents, whose links lead to their sections
    order = page.evaluate(
        """["key-figures", "toc-title", "servers", "open-data"].map(
            (id) => document.getElementById(id).getBoundingClientRect().top + scrollY)"""
    )
    assert order == sorted(order)
    page.locator("nav.toc").get_by_role("link", name="Where servers run").click()
    assert page.evaluate("location.hash") == "#countries"
    screenshot(f"usage-dashboard-320-{scheme}", full_page=True)


# Every withheld point of every bar chart: where to look for it and in which colour.
WITHHELD_BARS = """Object.values(window.portalCharts).flatMap((chart) =>
    chart.config.type !== "bar" ? [] : chart.data.datasets.flatMap((dataset, index) =>
        dataset.withheldPoints.map((point) => ({
            chart: chart.canvas.dataset.chart,
            dataset: index,
            point,
            value: dataset.data[point],
            colour: dataset.borderColor,
            stacked: Boolean(chart.options.scales.x.stacked),
        }))))"""
# The tallest column of "servers over time" and its colour: it is drawn.
TALLEST_ACTIVE = """(() => {
    const dataset = window.portalCharts["active"].data.datasets[0];
    const values = dataset.data.map((value) => value || 0);
    return {point: values.indexOf(Math.max(...values)), colour: dataset.borderColor};
})()"""
# The mark of a withheld figure (static/js/trends.js): an 8 px hatched square on the axis,
# stacked columns' marks one above the other, 10 px apart; its outline reaches 1 px more.
MARK, MARK_STEP = 8, 10


def withheld_columns_are_not_drawn(page, *, expect_some: bool):
    """A withheld count has no height (issue 49: it was a hatched bar of 5; issue 57: a
    column Chart.js gave a width and a NaN height counted as drawn): in the canvas's
    pixels, a withheld point's colour shows only in its mark on the axis, never above it,
    while a column with servers is drawn."""
    withheld = page.evaluate(WITHHELD_BARS)
    assert withheld or not expect_some
    for bar in withheld:
        shown = charts.painted(page, bar["chart"], bar["point"], bar["colour"])
        mark_top = (MARK_STEP * bar["dataset"] if bar["stacked"] else 0) + MARK + 2
        assert shown.beyond(mark_top) == 0, (bar, shown)  # no column above the mark
        assert shown.reach > mark_top - MARK - 2, (bar, shown)  # the mark is on the axis
        assert bar["value"] is None, bar  # and the chart is given no figure for it
    tallest = page.evaluate(TALLEST_ACTIVE)
    drawn = charts.painted(page, "active", tallest["point"], tallest["colour"])
    assert drawn.beyond(MARK + 2) > 0, drawn  # the helper sees a drawn column


# Columns of "series over time" whose drawn parts add up to more than the servers of
# that period ("servers over time"): none.
STACKED_OVER_TOTAL = """(() => {
    const series = window.portalCharts["series"], active = window.portalCharts["active"];
    return series.data.labels.flatMap((label, i) => {
        const drawn = series.data.datasets.reduce((sum, d) => sum + (d.data[i] || 0), 0);
        const total = active.data.datasets[0].data[i];
        return drawn > (total || 0) ? [`${label}: ${drawn} drawn, ${total} servers`] : [];
    });
})()"""


ADOPTION_STYLES = """window.portalCharts["adoption"].data.datasets.map(
    (d) => JSON.stringify([d.borderDash, d.pointStyle]))"""


def wide_screen_in_dark_mode(live_server, page, screenshot):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/feedback/")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    assert page.locator("nav.toc a").count() >= 6
    # a withheld count has no height: the chart marks its place on the axis (whether a
    # month is withheld depends on the day the demo is built around), and a stacked column
    # never exceeds the servers counted
    withheld_columns_are_not_drawn(page, expect_some=False)
    over = page.evaluate(STACKED_OVER_TOTAL)
    assert over == [], over
    # coinciding adoption lines stay apart: each line is drawn with its own dash and marker
    styles = page.evaluate(ADOPTION_STYLES)
    assert len(styles) > 1 and len(set(styles)) == len(styles), styles
    # nothing wider than the page: a wide table scrolls inside its own box
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    for box in page.locator("figure .table-wrap").all():
        assert box.evaluate("(el) => getComputedStyle(el).overflowX") == "auto"
    screenshot("usage-dashboard-1280-dark", full_page=True)
    # Per day, the demo always has withheld columns (its servers join over its first weeks
    # and report weekly, so early days have fewer servers than the minimum).
    page.goto(live_server.url + "/feedback/?period=day")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    withheld_columns_are_not_drawn(page, expect_some=True)


def test_the_dashboard_at_each_width_and_in_both_schemes(
    live_server, page, screenshot, demo_content_committed
):
    """One browser walk over the demo's dashboard: the demo content (with the releases'
    real versions and dates, 10.6 end of life, and the usage demo) committed in a copy of
    the worker's demo database (tests/shared_data.py), which the live server needs."""
    charts_render_with_their_tables(live_server, page, screenshot)
    on_a_phone_labels_wrap_instead_of_being_cut(live_server, page, screenshot)
    for scheme in ("light", "dark"):
        at_320_px_nothing_is_wider_than_the_screen(live_server, page, screenshot, scheme)
    wide_screen_in_dark_mode(live_server, page, screenshot)
