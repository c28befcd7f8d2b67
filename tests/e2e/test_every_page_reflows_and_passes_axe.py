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

The same walk watches the Content-Security-Policy: on every page it loads, and on every
page of the site linked from them that no sitemap lists (sign-in, forms, filtered lists;
of a route with many such pages, a few),
Chromium's securitypolicyviolation events and console must report no violation, and
every such page must send the policy.
"""

import re
import time
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from playwright.sync_api import Error as PlaywrightError

from releases.repoconfig import services as repoconfig
from tests.artifacts import ARTIFACTS
from tests.e2e.page_audit import LISTEN_FOR_CSP, SCHEMES, WIDTHS, audit
from tests.e2e.sitemap_pages import every_kind, listed_paths, representatives

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = {"/", "/download/", "/download/repo-config/", "/feedback/", "/benchmarks/"}
# Pages no sitemap lists but every visitor meets: results of a search, and the 404 page.
SEARCH_RESULTS = "/search/?q=mariadb+release"
MISSING_PAGE = "/download/no-such-series-galera/"
# Linked pages the CSP check does not open: staff's, signing out, files and machine APIs.
NOT_CRAWLED = re.compile(r"^/(admin/|accounts/logout|static/|media/|rest/v1/|feedback_plugin/)")


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
    csp, console, linked = [], [], set()
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        context.add_init_script(LISTEN_FOR_CSP)
        page = context.new_page()
        page.on("console", lambda message, page=page: console.append(f"{page.url}: {message.text}"))
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="load")
            visits += 1
            expected = 404 if path == MISSING_PAGE else 200
            assert response is not None and response.status == expected, path
            assert "content-security-policy" in response.headers, path
            csp += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
            linked |= links_on(page, live_server.url)
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
        if width == WIDTHS[0]:
            beyond_sitemap = sorted(linked - set(listed) - set(paths))
            crawled = crawl_for_csp(page, live_server.url, every_kind(beyond_sitemap))
            csp += crawled["violations"]
        context.close()
    report = (f"walk: {len(listed)} sitemap URLs in {len(set(variants.values()))} variants; "
              f"{visits} page loads, {axe_runs} axe runs "
              f"in {time.monotonic() - started:.0f} s ({axe_seconds:.0f} s in axe); "
              f"{crawled['opened']} linked pages opened for the CSP: {crawled['paths']}")  # fmt: skip
    (ARTIFACTS / "walk-report.txt").write_text("\n".join([report, *overflowing, *violations]))
    print(report)
    assert visits == len(WIDTHS) * len(paths) and axe_runs == len(SCHEMES) * len(paths), report
    assert crawled["opened"] >= 10, crawled  # the links reached pages beyond the sitemap
    csp += [line for line in console if "Content Security Policy" in line or "Refused to" in line]
    assert csp == [], "\n".join(csp)
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)


def links_on(page, base_url) -> set[str]:
    """The paths of the site's pages (not its files) the page links to, without a query."""
    site = urlsplit(base_url).netloc
    found = set()
    for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
        bits = urlsplit(urljoin(page.url, href))
        page_like = bits.path.endswith("/")  # not a file: a chart's PNG, a CSV, a feed
        if (
            bits.netloc == site
            and page_like
            and not bits.query
            and not NOT_CRAWLED.match(bits.path)
        ):
            found.add(bits.path)
    return found


def crawl_for_csp(page, base_url, paths) -> dict:
    """Open each page once and collect its policy violations; a link to a file (CSV, JSON)
    starts a download instead and is skipped."""
    opened, violations, seen = 0, [], []
    for path in sorted(paths):
        try:
            response = page.goto(base_url + path, wait_until="load")
        except PlaywrightError as error:
            if "Download is starting" in str(error):
                continue
            raise
        if response is None or "text/html" not in response.headers.get("content-type", ""):
            continue
        assert response.status < 500, path
        assert "content-security-policy" in response.headers, path
        opened += 1
        seen.append(path)
        violations += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
    return {"opened": opened, "violations": violations, "paths": seen}
