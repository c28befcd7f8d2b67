"""A chart image opened on its own is a document under the site's Content-Security-Policy
(style-src 'self'): it must draw its colours without inline CSS (issue 34: 92 style-src
violations, the chart drawn black on transparent)."""

import pytest
from defusedxml import ElementTree

from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory

SVG = "{http://www.w3.org/2000/svg}"


def chart_svg_url():
    suite = SuiteFactory()
    for order, label in enumerate(("driver a", "driver b")):
        run = RunFactory(suite=suite, label=label, order=order)
        for threads, value in ((1, 100 + order), (2, 180 + order)):
            MeasurementFactory(
                run=run, metric="score", value=value, parameters={"threads": threads}
            )
    return f"/benchmarks/{suite.slug}/charts/score.svg"


def style_sources(response) -> list[str]:
    """The sources the response's policy allows styles from."""
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        if part.strip():
            name, *sources = part.split()
            directives[name] = sources
    return directives.get("style-src", directives.get("default-src", []))


@pytest.mark.django_db
def test_the_svg_needs_no_style_its_policy_refuses(client):
    response = client.get(chart_svg_url())
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "'unsafe-inline'" not in style_sources(response)
    root = ElementTree.fromstring(response.content)
    assert not list(root.iter(f"{SVG}style"))
    assert [e.tag for e in root.iter() if "style" in e.attrib] == []
    # What the CSS said is still said, as presentation attributes.
    assert root.get("stroke-linecap") == "butt" and root.get("stroke-linejoin") == "round"
    background = root.find(f".//{SVG}g[@id='patch_1']/{SVG}path")
    assert background.get("fill") == "#ffffff"
    lines = [p.get("stroke") for p in root.iter(f"{SVG}path") if p.get("stroke-width") == "1.8"]
    assert "#0072b2" in lines and "#b87800" in lines
    labels = [t for t in root.iter(f"{SVG}text") if t.text == "driver a"]
    assert labels and labels[0].get("font-family") == "'DejaVu Sans'"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_svg_opened_on_its_own_draws_in_colour(live_server, page):
    violations = []
    page.on("console", lambda message: violations.append(message.text))
    page.goto(live_server.url + chart_svg_url())
    assert page.evaluate("document.contentType") == "image/svg+xml"
    background = page.evaluate("getComputedStyle(document.querySelector('#patch_1 path')).fill")
    lines = page.evaluate(
        "[...document.querySelectorAll('path')].filter(p => getComputedStyle(p).strokeWidth"
        " === '1.8px').map(p => getComputedStyle(p).stroke)"
    )
    assert [v for v in violations if "Content Security Policy" in v] == []
    assert background == "rgb(255, 255, 255)"  # the white background, not the default black
    assert "rgb(0, 114, 178)" in lines and "rgb(184, 120, 0)" in lines
