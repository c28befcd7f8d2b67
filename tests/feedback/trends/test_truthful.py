"""Issue 28: no public number can be read as more than the data says."""

import csv
import io
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from feedback.models import Report, TestTrafficRule
from feedback.services import processing
from feedback.trends import data
from feedback.trends.models import Snapshot
from feedback.trends.rollups import update_rollups
from feedback.trends.snapshots import publish_complete_months
from tests.feedback.factories import ReportFactory, ServerFactory, TestTrafficRuleFactory
from tests.releases.factories import SeriesFactory

pytestmark = pytest.mark.django_db
TODAY = date(2026, 11, 22)
GIB = 1024**3


def at(day: date, hour=12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_small_memory_ranges_merge_with_their_neighbours_not_into_other(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    sizes = {4: 6, 12: 3, 24: 1, 48: 1, 100: 1, 200: 5}  # GiB: servers
    for gib, servers in sizes.items():
        for _ in range(servers):
            ReportFactory(memory_bytes=gib * GIB, received_at=at(date(2026, 10, 5)))
    summary = client.get("/api/feedback/summary").json()
    # 8-16 (3) + 16-32 (1) + 32-64 (1) make one range of 5; 64-128 (1) joins the next one
    assert summary["breakdowns"]["memory"] == {
        "2–4 GiB": 6,
        "8–64 GiB": 5,
        "more than 64 GiB": 6,
    }
    assert summary["share_percent"]["memory"] == {
        "2–4 GiB": 35.3,
        "8–64 GiB": 29.4,
        "more than 64 GiB": 35.3,
    }
    update_rollups(today=TODAY)
    dashboard = data.dashboard("month", today=TODAY)
    assert list(dashboard["breakdowns"]["memory"]) == ["2–4 GiB", "8–64 GiB", "more than 64 GiB"]


def test_too_few_servers_for_any_range_are_other(settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    for count in (1, 2, 4):
        ReportFactory(cpu_count=count, received_at=at(date(2026, 10, 5)))
    update_rollups(today=TODAY)
    assert data.dashboard("month", today=TODAY)["breakdowns"]["cpu"] == {"other": 3}


def test_a_series_under_the_minimum_is_a_gap_not_zero(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 2
    for _ in range(2):
        ReportFactory(received_at=at(date(2026, 9, 3)))
        ReportFactory(received_at=at(date(2026, 10, 3)), version_minor=6)
    ReportFactory(received_at=at(date(2026, 10, 4)))  # one 10.11 server in October
    update_rollups(today=TODAY)
    dashboard = data.dashboard("month", today=TODAY)
    assert dashboard["labels"] == ["2026-09-01", "2026-10-01"]  # nothing before the first
    assert dashboard["series_over_time"]["10.11"] == [2, None]
    response = client.get("/api/feedback/charts/series.csv?period=month")
    rows = csv_rows(response)
    # the header row first; one row per period and series; a withheld count is an empty
    # cell with servers_withheld true, never 0 and never text
    assert rows[0] == [
        "period_start",
        "complete",
        "reports_begin",
        "series",
        "servers",
        "servers_withheld",
    ]
    # the first month began before the first report (3 September), and says so in its own
    # column; its 2 servers all run 10.11, so the published total shows that 10.6 and
    # "other" had none: 0, not "withheld" (issue 49: a withheld cell is never a cell the
    # total reveals)
    assert rows[1:4] == [
        ["2026-09-01", "true", "2026-09-03", "10.6", "0", "false"],
        ["2026-09-01", "true", "2026-09-03", "10.11", "2", "false"],
        ["2026-09-01", "true", "2026-09-03", "other", "0", "false"],
    ]
    # October's one 10.11 server is withheld (counted in "other", itself under the minimum)
    assert rows[4:7] == [
        ["2026-10-01", "true", "", "10.6", "2", "false"],
        ["2026-10-01", "true", "", "10.11", "", "true"],
        ["2026-10-01", "true", "", "other", "", "true"],
    ]


def test_every_breakdown_says_its_period_and_server_count(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 9, 20)))
    for _ in range(3):
        ReportFactory(received_at=at(date(2026, 10, 5)))
    update_rollups(today=TODAY)
    body = client.get("/api/feedback/charts/b-os.json?period=month").json()
    assert (
        body["scope"]
        == "3 servers that sent a full report in the month from 2026-10-01 to 2026-10-31"
    )
    assert body["reports_begin"] == "2026-09-20"


def test_the_summary_and_the_dashboard_agree_on_the_same_question(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    today = timezone.localdate()
    month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    ReportFactory(received_at=at(month - timedelta(days=3)))
    for offset in (2, 9, 20):
        ReportFactory(received_at=at(month + timedelta(days=offset)), architecture="aarch64")
    ReportFactory(received_at=at(today - timedelta(days=1)) if today.day > 1 else at(today))
    update_rollups()
    dashboard = data.dashboard("month")
    assert dashboard["selected"]["from"] == month.isoformat()
    summary = client.get(f"/api/feedback/summary?month={month:%Y-%m}").json()
    assert summary["period"]["kind"] == "month"
    assert summary["servers"] == dashboard["selected"]["servers"] == 3
    assert summary["breakdowns"]["architecture"] == dashboard["breakdowns"]["architecture"]
    for window in ("30d", "90d"):
        windowed = data.dashboard("month", window)
        summary = client.get(f"/api/feedback/summary?window={window}").json()
        assert summary["servers"] == windowed["selected"]["servers"], window
        assert summary["period"]["window_from"] == windowed["selected"]["from"]
    everything = client.get("/api/feedback/summary").json()
    assert everything["period"]["kind"] == "all" and everything["servers"] == 5
    assert "test traffic excluded" in everything["counts"]
    assert client.get("/api/feedback/summary?month=October").status_code == 400


def test_labels_staff_mark_as_test_traffic_leave_every_public_figure(client, admin_client):
    for _ in range(5):
        ReportFactory(received_at=at(date(2026, 10, 5)), user_info="")
    for label in ("staging db", "capture-test"):
        for _ in range(3):
            ReportFactory(received_at=at(date(2026, 10, 6)), user_info=label)
    ReportFactory(received_at=at(date(2026, 9, 28)))
    assert client.get("/api/feedback/summary").json()["servers"] == 12

    response = admin_client.post(
        "/admin/feedback/testtrafficrule/add/",
        {"kind": "label", "value": "Staging DB ", "note": "staging"},
        follow=True,
    )
    assertContains(response, "3 reports newly marked as test traffic")
    TestTrafficRuleFactory(value="capture-test")
    processing.apply_test_traffic_rules()
    assert Report.objects.filter(is_test=True).count() == 6
    assert client.get("/api/feedback/summary").json()["servers"] == 6

    update_rollups(today=TODAY)
    dashboard = data.dashboard("month", today=TODAY)
    assert dashboard["selected"]["servers"] == 5
    publish_complete_months(today=TODAY)
    assert client.get("/api/feedback/snapshots/2026-10.json").json()["servers"] == 5
    # the staff view keeps them
    staff = admin_client.get("/feedback/staff/")
    assertContains(staff, "<td>staging db</td>", html=True)

    # a rule taken back puts the reports back into the figures (rollups count again)
    TestTrafficRule.objects.filter(value="capture-test").delete()
    assert processing.apply_test_traffic_rules() == (0, 3)
    update_rollups(today=TODAY)
    assert data.dashboard("month", today=TODAY)["selected"]["servers"] == 8


def test_staff_mark_a_server_as_test_traffic_from_the_admin(client, admin_client):
    server = ServerFactory()
    ReportFactory(server=server)
    ReportFactory()
    response = admin_client.post(
        "/admin/feedback/server/",
        {"action": "mark_as_test_traffic", "_selected_action": [server.pk]},
        follow=True,
    )
    assertContains(response, "1 marked as test traffic")
    assert list(Report.objects.filter(is_test=True).values_list("server", flat=True)) == [server.pk]
    assert client.get("/api/feedback/summary").json()["servers"] == 1


def test_countries_are_published_only_from_five_servers(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    ReportFactory(received_at=at(date(2026, 9, 28)), country="FI")
    for _ in range(5):
        ReportFactory(received_at=at(date(2026, 10, 5)), country="FI")
    for _ in range(2):
        ReportFactory(received_at=at(date(2026, 10, 5)), country="US")
    update_rollups(today=TODAY)
    assert data.dashboard("month", today=TODAY)["breakdowns"]["country"] == {"FI": 5, "other": 2}
    body = client.get("/api/feedback/charts/b-country.json?period=month").json()
    assert body["rows"][0] == ["Finland (FI)", 5, "71.4%"]


def test_snapshot_csv_opens_with_its_header_and_the_readme_has_the_licence(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 9, 28)))
    ReportFactory(received_at=at(date(2026, 10, 5)))
    update_rollups(today=TODAY)
    publish_complete_months(today=TODAY)
    response = client.get("/api/feedback/snapshots/2026-10.csv")
    rows = csv_rows(response)
    assert rows[0] == [
        "month",
        "dimension",
        "value",
        "servers",
        "servers_withheld",
        "total_servers",
        "share_percent",
    ]
    assert rows[1] == ["2026-10", "servers", "", "1", "false", "1", "100.0"]
    assert all(len(row) == 7 for row in rows)
    assert 'rel="license"' in response["Link"]
    readme = client.get("/api/feedback/snapshots/README.md")
    text = readme.content.decode()
    assert "CC BY 4.0" in text and "Attribution: MariaDB Foundation" in text
    assert Snapshot.objects.get().csv_sha256 in text
    assert readme["Content-Type"].startswith("text/markdown")


def test_the_page_has_contents_key_figures_first_and_linkable_sections(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 9, 28)))
    ReportFactory(received_at=at(date(2026, 10, 5)), country="FI")
    update_rollups()
    response = client.get("/feedback/")
    html = response.content.decode()
    assert (
        html.index('id="key-figures"') < html.index('id="toc-title"') < html.index('id="servers"')
    )
    for section in ("servers", "versions", "platforms", "countries", "hardware", "upgrades"):
        if f'id="{section}"' in html:
            assertContains(response, f'<li><a href="#{section}">', count=1)
    assertContains(response, '<a href="#open-data">Open data</a>', html=True)
    assertContains(response, 'id="chart-b-country"')


def test_a_window_never_starts_before_the_reports_do(client, settings):
    """Issue 49: b-version.csv?window=365d said its period began a year ago, though the
    reports began weeks before."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    today = timezone.localdate()
    first = today - timedelta(days=40)
    ReportFactory(received_at=at(first))
    ReportFactory(received_at=at(today - timedelta(days=3)))
    update_rollups()
    assert data.dashboard("month", "365d")["selected"]["from"] == first.isoformat()
    body = client.get("/api/feedback/charts/b-version.json?window=365d").json()
    assert body["reports_begin"] == first.isoformat()
    trend = client.get("/api/feedback/trends/version.json?window=365d").json()
    assert trend["from"] == first.isoformat()
    summary = client.get("/api/feedback/summary?window=365d").json()
    assert summary["period"]["window_from"] == first.isoformat()
    page = client.get("/feedback/?window=365d")
    assertContains(page, first.isoformat())
    assert (today - timedelta(days=364)).isoformat() not in page.content.decode()


def test_every_link_the_page_offers_answers_and_the_series_have_their_pages(client, settings):
    """Issue 60: the page offered /api/feedback/summary ".json or .csv" (404) and linked to
    no series page. Every link of the page's main content answers 200, and the series
    over time link to the pages of the series they show."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    SeriesFactory(version="10.11")
    last_month = (timezone.localdate().replace(day=1) - timedelta(days=1)).replace(day=1)
    for offset in (2, 3):
        ReportFactory(received_at=at(last_month + timedelta(days=offset)))
    ReportFactory(received_at=at(last_month), version_minor=6)  # 10.6: no series page here
    update_rollups()
    response = client.get("/feedback/")
    assertContains(
        response,
        '<p class="chart-links">Who runs each series, month by month, and how fast its '
        "releases were picked up, on the series' page: "
        '<a href="/download/10.11/">10.11</a>.</p>',
        html=True,
    )
    main = response.content.decode().split("<main", 1)[1].split("</main>", 1)[0]
    links = set(re.findall(r'href="(/[^"#]*)"', main))
    assert {"/api/feedback/summary.json", "/api/feedback/summary.csv", "/download/10.11/"} <= links
    for link in sorted(links):
        assert client.get(link.replace("&amp;", "&")).status_code == 200, link
