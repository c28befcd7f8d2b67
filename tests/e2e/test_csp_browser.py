"""No Content-Security-Policy violation in Chromium on any page: every kind of page of the
sitemap (every URL of a route with a handful, a sample of the ~480 release pages, which
share one template; tests/e2e/sitemap_pages.py) and every page reachable from the home
page (demo content loaded) is opened, and the browser's console and
securitypolicyviolation events are watched."""

import re
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.sitemap_pages import every_kind, sitemap_paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_PAGES = 120
SKIP = re.compile(r"^/(admin/|accounts/logout|static/|media/|rest/v1/|feedback_plugin/)")
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def test_no_page_violates_the_content_security_policy(
    live_server, page, settings, demo_content_committed
):
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{page.url}: {message.text}"))
    page.add_init_script(LISTEN)

    from_sitemap = every_kind(sitemap_paths(page, live_server.url))
    queue, seen, violations, visited = ["/", *from_sitemap], set(), [], []
    while queue and len(visited) < MAX_PAGES:
        path = queue.pop(0)
        if path in seen or SKIP.match(path):
            continue
        seen.add(path)
        try:
            response = page.goto(live_server.url + path)
        except PlaywrightError as error:  # a file download (CSV, JSON, raw results), not a page
            if "Download is starting" in str(error):
                continue
            raise
        if response is None or "text/html" not in response.headers.get("content-type", ""):
            continue
        visited.append(path)
        assert response.status < 500, path
        assert "content-security-policy" in response.headers, path
        page.wait_for_load_state("load")
        violations += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
        for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
            bits = urlsplit(urljoin(live_server.url + path, href))
            if bits.netloc == urlsplit(live_server.url).netloc and not bits.query:
                queue.append(bits.path)

    assert set(from_sitemap) <= set(visited) | {p for p in from_sitemap if SKIP.match(p)}
    assert len(visited) >= 25, visited  # the crawl really reached the site's pages
    csp_console = [
        line for line in console if "Content Security Policy" in line or "Refused to" in line
    ]
    assert violations == [] and csp_console == [], violations + csp_console


def test_staff_admin_pages_run_without_csp_violations(live_server, page, django_user_model):
    from django_celery_beat.models import CrontabSchedule

    CrontabSchedule.objects.get_or_create(minute="0", hour="4")
    django_user_model.objects.create_superuser("staff", "staff@example.org", "a-long-Passphrase-42")
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{page.url}: {message.text}"))
    page.add_init_script(LISTEN)
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "staff")
    page.fill("#id_password", "a-long-Passphrase-42")
    page.click("input[type=submit]")
    violations = []
    for path in ["/admin/", "/admin/foundation/newspost/add/", "/admin/sponsors/organisation/",
                 "/admin/django_celery_beat/periodictask/add/"]:  # fmt: skip
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        violations += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
    # The periodic task form's crontab help (a static script instead of an inline one).
    page.select_option("#id_crontab", index=1)
    assert "Translation:" in page.locator(".field-crontab .help").inner_text()
    csp_console = [line for line in console if "Content Security Policy" in line]
    assert violations == [] and csp_console == [], violations + csp_console
