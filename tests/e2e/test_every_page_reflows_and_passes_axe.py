"""Every kind of page of the sitemap reflows on a phone and passes axe-core.

With the demo content loaded (the ``demo_content_committed`` fixture; some 650 URLs,
most of them release pages), every URL of /sitemap.xml is fetched with Django's test
client and must answer 200; the URLs are then
grouped by page variant (the templates Django rendered for the page, and the kinds of
element, by tag name, in it: tests/e2e/sitemap_pages.py), and the browser audits the
first URL of each variant (some 47), plus a search result, the 404 page and the
repository generator's result:

* reflow: at 320 and 390 CSS px, no wider than the viewport
  (``document.documentElement.scrollWidth``); a failure names the elements whose right
  edge sticks out;
* axe-core (the copy pinned by the axe-playwright-python dev dependency) at 320 px, in
  the light and the dark colour scheme, with zero serious or critical violations (its
  findings do not depend on the width).

A page that differs from every other in its templates or the elements it is made of is a
variant of its own, so it is audited; release pages that differ only in their text share
one audit. One browser context per width, one reused tab; the colour scheme is switched
with ``page.emulate_media`` (the charts redraw on the change). docs/ACCESSIBILITY.md says
more.
"""

import time

import pytest
from django.test import Client

from releases.repoconfig import services as repoconfig
from tests.artifacts import ARTIFACTS
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit
from tests.e2e.sitemap_pages import listed_paths, representatives

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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


def test_every_page_reflows_at_phone_widths_and_passes_axe(
    live_server, browser, demo_content_committed
):
    started = time.monotonic()
    ARTIFACTS.mkdir(exist_ok=True)
    listed = listed_paths(Client())
    chosen, variants, failures = representatives(Client(), listed)
    assert failures == [], "\n".join(failures)
    assert len(listed) >= 500 and set(variants) == set(listed)  # every sitemap URL fetched
    paths = [*chosen, SEARCH_RESULTS, MISSING_PAGE, repo_config_result()]
    overflowing, violations, axe_runs, visits, axe_seconds = [], [], 0, 0, 0.0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="load")
            visits += 1
            expected = 404 if path == MISSING_PAGE else 200
            assert response is not None and response.status == expected, path
            shot = None
            if path in SCREENSHOTS or path in paths[-3:]:
                slug = path.split("?")[0].strip("/").replace("/", "-") or "home"
                shot = str(ARTIFACTS / f"walk-{slug}{'-result' if '?' in path else ''}")
            axe_started = time.monotonic()
            wide, blocking, runs = audit(page, path, width, screenshot=shot)
            axe_seconds += time.monotonic() - axe_started
            overflowing += wide
            violations += blocking
            axe_runs += runs
        context.close()
    report = (f"walk: {len(listed)} sitemap URLs in {len(set(variants.values()))} variants; "
              f"{visits} page loads, {axe_runs} axe runs "
              f"in {time.monotonic() - started:.0f} s ({axe_seconds:.0f} s in axe)")  # fmt: skip
    (ARTIFACTS / "walk-report.txt").write_text("\n".join([report, *overflowing, *violations]))
    print(report)
    assert visits == len(WIDTHS) * len(paths) and axe_runs == len(SCHEMES) * len(paths), report
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
