"""Every page of the sitemap reflows on a phone and passes axe-core.

With the demo content loaded (some 550 URLs, most of them release pages), plus a
search result, the 404 page and the repository generator's result:

* reflow: every URL of /sitemap.xml, at 320 and 390 CSS px, is no wider than the
  viewport (``document.documentElement.scrollWidth``); a failure names the elements whose
  right edge sticks out;
* axe-core (the copy pinned by the axe-playwright-python dev dependency) on every one
  of those pages at 320 and 390 px, each in the light and the dark colour scheme, with
  zero serious or critical violations (some 2,200 axe runs, about four minutes).

One browser context per width, one reused tab; the colour scheme is switched with
``page.emulate_media`` (the charts redraw on the change). docs/ACCESSIBILITY.md says more.
"""

import time
from pathlib import Path

import axe_playwright_python
import pytest
from django.core.management import call_command

from releases.repoconfig import services as repoconfig
from tests.artifacts import ARTIFACTS
from tests.e2e.sitemap_pages import sitemap_paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
WIDTHS = (320, 390)
SCHEMES = ("light", "dark")
BLOCKING = {"serious", "critical"}
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""
# What sticks out past the viewport, no scrolling ancestor containing it: the innermost
# elements, and text (a long word or path) that overflows its element.
OVERFLOW = """() => {
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth <= width) return null;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    [...el.classList].map((c) => "." + c).join("");
  const sticking = [...document.body.querySelectorAll("*")].filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.right > width + 0.5 && !clipped(el);
  });
  const found = sticking.filter((el) => !sticking.some((o) => o !== el && el.contains(o)))
    .map((el) => `${name(el.parentElement)} > ${name(el)} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`);
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(texts.currentNode);
    const right = range.getBoundingClientRect().right;
    if (right > width + 0.5 && !clipped(texts.currentNode)) {
      found.push(`text in ${name(texts.currentNode.parentElement)} "${texts.currentNode.textContent.trim().slice(0, 40)}" (right edge ${Math.round(right)} px)`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, elements: found.slice(0, 8)};
}"""
SCREENSHOTS = {"/", "/download/", "/download/repo-config/", "/feedback/", "/benchmarks/"}
# Pages no sitemap lists but every visitor meets: results of a search, and the 404 page.
SEARCH_RESULTS = "/search/?q=mariadb+release"
MISSING_PAGE = "/download/no-such-series-galera/"


def repo_config_result():
    """The generator with a choice made: its result (commands, Copy buttons) is no sitemap URL."""
    options = repoconfig.options()
    distro = next(d for d in options["distributions"] if d["releases"])
    choice = next(r for r in distro["releases"] if r["versions"])
    return (
        f"/download/repo-config/?distro={distro['slug']}&release={choice['key']}"
        f"&version={choice['versions'][0]['version']}&mirror={options['mirrors'][0]['id']}"
    )


def test_every_page_reflows_at_phone_widths_and_passes_axe(live_server, browser):
    call_command("load_demo", verbosity=0)
    started = time.monotonic()
    ARTIFACTS.mkdir(exist_ok=True)
    overflowing, violations, axe_runs, visits, axe_seconds = [], [], 0, 0, 0.0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        paths = [
            *sitemap_paths(page, live_server.url),
            SEARCH_RESULTS,
            MISSING_PAGE,
            repo_config_result(),
        ]
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="load")
            visits += 1
            expected = 404 if path == MISSING_PAGE else 200
            assert response is not None and response.status == expected, path
            page.emulate_media(color_scheme="light")
            wide = page.evaluate(OVERFLOW)
            if wide:
                overflowing.append(f"{path} at {width} px is {wide['scrollWidth']} px wide: "
                                   + "; ".join(wide["elements"]))  # fmt: skip
            axe_started = time.monotonic()
            page.evaluate(AXE_SOURCE)
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                axe_runs += 1
                for v in page.evaluate(AXE_RUN):
                    if v["impact"] in BLOCKING:
                        violations.append(f"{path} {width} px {scheme}: {v['id']} ({v['impact']}) "
                                          f"{v['help']} at {v['targets']}")  # fmt: skip
                if path in SCREENSHOTS or path in paths[-3:]:
                    slug = path.split("?")[0].strip("/").replace("/", "-") or "home"
                    slug += "-result" if "?" in path else ""
                    page.screenshot(path=str(ARTIFACTS / f"walk-{slug}-{width}-{scheme}.png"))
            axe_seconds += time.monotonic() - axe_started
        context.close()
    report = (f"walk: {visits} page loads, {axe_runs} axe runs "
              f"in {time.monotonic() - started:.0f} s ({axe_seconds:.0f} s in axe)")  # fmt: skip
    (ARTIFACTS / "walk-report.txt").write_text("\n".join([report, *overflowing, *violations]))
    print(report)
    assert visits >= 2 * 500 and axe_runs == 2 * visits, report  # the walk really covered the site
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
