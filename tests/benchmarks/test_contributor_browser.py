"""Issue 38 in a real Chromium: a contributor makes a token (shown once) and revokes it,
submits a run with the web form and sees the draft; the pages reflow at 320 and 390 px and
pass axe in light and dark; the suite's version chart draws; a compare table scrolls
inside its box on a phone, and a run keeps its colour on the suite and compare pages."""

from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from benchmarks.models import Run, SubmissionToken
from benchmarks.services import importing
from tests.artifacts import ARTIFACTS
from tests.benchmarks.factories import SuiteFactory
from tests.benchmarks.helpers import DATA, OLTP_RW, OLTP_RW_PROVENANCE
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
POOL_16 = DATA / "sysbench-1.0.20-real-pool-16.txt"  # the same tool, at 16 threads


@pytest.fixture
def contributor(django_user_model):
    user = django_user_model.objects.create_user("perf", "perf@example.org", "pw-123456789x")
    user.emailaddress_set.create(email=user.email, primary=True, verified=True)
    return user


def _signed_in(browser, live_server, user, **options):
    client = Client()
    client.force_login(user)
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context, context.new_page()


def test_a_token_is_made_shown_once_and_revoked(live_server, browser, contributor):
    context, page = _signed_in(browser, live_server, contributor)
    page.goto(live_server.url + "/accounts/benchmarks/")
    assert page.locator("#no-tokens").is_visible()
    page.get_by_label("Token name").fill("CI: arm64 runner")
    page.get_by_role("button", name="Make a token").click()
    key = page.get_by_label("Token", exact=True).input_value()
    assert key.startswith("bench_") and len(key) > 40
    # Issue 49: a button copies it; Revoke looks destructive; the client is a link.
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy the token").click()
    assert page.evaluate("navigator.clipboard.readText()") == key
    revoke = page.get_by_role("button", name="Revoke CI: arm64 runner")
    assert "button-danger" in revoke.get_attribute("class")
    client = page.locator("#submit-client")
    assert client.get_attribute("href") == "/benchmarks/client/submit_run.py"
    assert "def main" in page.request.get(live_server.url + client.get_attribute("href")).text()
    assert page.locator("#tokens th[scope=row]").all_inner_texts() == ["CI: arm64 runner"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "benchmarks-token-made.png"), full_page=True)
    page.goto(live_server.url + "/accounts/benchmarks/")
    assert key not in page.content()  # shown once
    page.get_by_role("button", name="Revoke CI: arm64 runner").click()
    assert page.get_by_text("The token is revoked").is_visible()
    assert page.locator("#no-tokens").is_visible()
    assert SubmissionToken.objects.get().revoked_at is not None
    context.close()


def test_the_web_form_submits_a_draft_that_the_account_page_lists(
    live_server, browser, contributor
):
    SuiteFactory(slug="community", title="Community runs")
    context, page = _signed_in(browser, live_server, contributor)
    page.goto(live_server.url + "/benchmarks/community/")
    page.get_by_role("link", name="Submit a run").click()
    assert page.url == live_server.url + "/benchmarks/community/submit/"
    page.get_by_label("Label:", exact=True).fill("my laptop, oltp_read_write")
    page.get_by_label("File:", exact=True).set_input_files(str(OLTP_RW))
    page.get_by_label("Importer:", exact=True).select_option("sysbench")
    page.get_by_label("Hardware (required):", exact=True).fill(OLTP_RW_PROVENANCE["hardware"])
    page.get_by_label("OS (required):", exact=True).fill(OLTP_RW_PROVENANCE["os"])
    page.get_by_label("Server version (required):", exact=True).fill(
        OLTP_RW_PROVENANCE["server_version"]
    )
    date_field = page.get_by_label("Date measured (required):", exact=True)
    assert date_field.get_attribute("type") == "date"
    date_field.fill(OLTP_RW_PROVENANCE["run_date"])
    page.get_by_label("Source (required):", exact=True).fill(OLTP_RW_PROVENANCE["source"])
    page.screenshot(path=str(ARTIFACTS / "benchmarks-submit-form.png"), full_page=True)
    page.get_by_role("button", name="Submit the run").click()
    assert page.url == live_server.url + "/accounts/benchmarks/#submissions"
    row = page.locator("#submitted-runs tbody tr")
    assert row.locator("th").inner_text() == "my laptop, oltp_read_write"
    assert row.locator(".run-state").inner_text() == "Draft: awaiting review"
    assert Run.objects.get().status == Run.Status.DRAFT
    page.screenshot(path=str(ARTIFACTS / "benchmarks-my-submissions.png"), full_page=True)
    context.close()


def test_the_contributor_pages_reflow_and_pass_axe(live_server, browser, contributor):
    suite = SuiteFactory(slug="community", title="Community runs")
    importing.import_run(
        suite=suite,
        label="mine",
        raw=OLTP_RW.read_bytes(),
        file_name="out.txt",
        importer="sysbench",
        user=contributor,
        **{**OLTP_RW_PROVENANCE, "run_date": date(2026, 11, 23)},
    )
    SubmissionToken.objects.create(
        user=contributor, name="CI", key_hash="0" * 64, prefix="bench_ab"
    )
    paths = ["/accounts/benchmarks/", "/benchmarks/community/submit/"]
    overflowing, violations, runs = [], [], 0
    for width in WIDTHS:
        context, page = _signed_in(browser, live_server, contributor)
        page.set_viewport_size({"width": width, "height": 800})
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            wide, blocking, count = audit(page, path, width)
            overflowing += wide
            violations += blocking
            runs += count
        context.close()
    assert runs == len(SCHEMES) * len(paths)
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)


def test_the_version_chart_draws_and_colours_stay_with_their_runs(
    live_server, browser, django_user_model
):
    suite = SuiteFactory(slug="versions", title="OLTP across versions")
    reviewer = django_user_model.objects.create_user(
        "reviewer", "reviewer@example.org", "pw-123456789x", is_staff=True
    )
    reviewer.user_permissions.add(Permission.objects.get(codename="publish_run"))
    runs = [
        importing.import_run(
            suite=suite,
            label=f"nightly {version}",
            raw=OLTP_RW.read_bytes(),
            file_name="out.txt",
            importer="sysbench",
            user=reviewer,
            **{**OLTP_RW_PROVENANCE, "server_version": version, "run_date": date(2026, 11, 23)},
        )
        for version in ["11.4.4", "10.6.20", "10.11.19"]
    ]
    for run in runs:  # a second thread count: the suite charts draw a line per run
        importing.add_raw_output(
            run, raw=POOL_16.read_bytes(), file_name="pool-16.txt", importer="sysbench"
        )
    ARTIFACTS.mkdir(exist_ok=True)
    for width, scheme in [(1280, "light"), (320, "dark")]:
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(live_server.url + "/benchmarks/versions/#versions")
        page.wait_for_function(
            "window.benchmarkCharts && window.benchmarkCharts['versions-transactions-per-second-0']"
        )
        labels = page.evaluate(
            "window.benchmarkCharts['versions-transactions-per-second-0'].data.labels"
        )
        assert labels == ["10.6.20", "10.11.19", "11.4.4"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#versions").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"benchmarks-versions-{width}-{scheme}.png"))
        context.close()

    # A run's colour on the compare page is its colour on the suite's chart pages.
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(f"{live_server.url}/benchmarks/versions/compare/?a={runs[2].pk}&b={runs[1].pk}")
    page.wait_for_function(
        "window.benchmarkCharts && window.benchmarkCharts['compare-transactions-per-second']"
    )
    compared = page.evaluate(
        "window.benchmarkCharts['compare-transactions-per-second'].data.datasets"
        ".filter(d => !d.label.startsWith('band-')).map(d => [d.label, d.borderColor])"
    )
    # the table scrolls inside its box: its last column is reachable, the page is not wider
    wrap = page.locator(".table-wrap:has(.compare-table)").first
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert page.get_by_role("columnheader", name="Beyond the noise?").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / "benchmarks-compare-390.png"), full_page=True)
    page.goto(f"{live_server.url}/benchmarks/versions/")
    page.wait_for_function(
        "window.benchmarkCharts && window.benchmarkCharts['chart-transactions-per-second']"
    )
    on_suite = dict(
        page.evaluate(
            "window.benchmarkCharts['chart-transactions-per-second'].data.datasets"
            ".filter(d => !d.label.startsWith('band-')).map(d => [d.label, d.borderColor])"
        )
    )
    page.close()
    assert [label for label, _ in compared] == ["nightly 10.11.19", "nightly 10.6.20"]
    assert compared[0][1] != compared[1][1]
    assert dict(compared) == {label: on_suite[label] for label, _ in compared}
