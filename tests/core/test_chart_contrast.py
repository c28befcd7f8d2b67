"""Chart colours stand out from the chart's background in both colour schemes.

axe-core checks the contrast of text, but it cannot see into a <canvas>, so the series
colours the charts read from static/css/site.css are checked here: each must reach 3:1
against --surface (the background of .chart-figure), the contrast WCAG 1.4.11 asks of
graphical objects, in the light scheme and in the dark one."""

import re

import pytest
from django.conf import settings

from benchmarks.render import PALETTE

SITE_CSS = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
BENCHMARKS_JS = (settings.BASE_DIR / "static" / "js" / "benchmarks.js").read_text()
DARK = "@media (prefers-color-scheme: dark)"
NON_TEXT_CONTRAST = 3.0


def tokens(css: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b", css))


def schemes() -> dict[str, dict[str, str]]:
    light_css, dark_css = SITE_CSS.split(DARK, 1)
    light = tokens(light_css[: light_css.index("}")])  # the first :root block
    dark = {**light, **tokens(dark_css[: dark_css.index("}")])}
    return {"light": light, "dark": dark}


def luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_matches_wcag():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_the_dark_scheme_overrides_every_chart_colour_and_the_surface():
    light, dark = schemes()["light"], schemes()["dark"]
    chart = [name for name in light if name.startswith("--chart-")]
    assert len(chart) == 9
    assert all(dark[name] != light[name] for name in [*chart, "--surface"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_chart_colour_stands_out_from_the_chart_background(scheme):
    colours = schemes()[scheme]
    surface = colours["--surface"]
    weak = {
        name: round(contrast(value, surface), 2)
        for name, value in colours.items()
        if name.startswith("--chart-") and contrast(value, surface) < NON_TEXT_CONTRAST
    }
    assert weak == {}, f"{scheme}: below {NON_TEXT_CONTRAST}:1 on {surface}: {weak}"


def test_benchmark_images_use_the_colours_of_the_charts_on_the_page():
    slots = re.search(r"const slots = \[([\d, ]+)\]", BENCHMARKS_JS).group(1)
    light = schemes()["light"]
    assert [light[f"--chart-{n.strip()}"] for n in slots.split(",")] == PALETTE
