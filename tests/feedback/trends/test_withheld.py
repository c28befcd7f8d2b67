"""Withheld is not zero: over time, a count under the minimum (no servers included) is
null in JSON and "fewer than N" in files, and ordered ranges keep one set of columns."""

import csv
import hashlib
import io
import json
import math
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from feedback.trends import charts
from feedback.trends.models import Snapshot
from feedback.trends.rollups import update_rollups
from feedback.trends.snapshots import publish_complete_months
from tests.feedback.factories import ReportFactory

pytestmark = pytest.mark.django_db
TODAY = date(2026, 11, 22)
OVER_TIME = [
    "series", "version", "build", "os", "distribution", "architecture", "thread_handling",
    "engine", "plugin", "feature", "collation", "charset",
]  # fmt: skip


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def two_months(settings):
    """September: 2 servers on 10.11 and two others alone on their series (merged into
    "other"); October: only the 2 servers on 10.11, so nothing is in "other"."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 2
    for month in (9, 10):
        for _ in range(2):
            ReportFactory(received_at=at(date(2026, month, 5)))
    ReportFactory(received_at=at(date(2026, 9, 6)), version_minor=4, architecture="riscv64")
    ReportFactory(
        received_at=at(date(2026, 9, 6)), version_minor=6, os="FreeBSD", thread_handling="pool"
    )
    update_rollups(today=TODAY)


def test_no_servers_in_other_is_zero_where_the_total_shows_it(client, two_months):
    """October's 2 servers all run 10.11: the published total shows "other" had none, so
    it is 0, not withheld (issue 49: complementary suppression, feedback.anonymity)."""
    trend = client.get("/api/feedback/trends/series.json?period=month").json()
    assert trend["values"] == {"10.11": [2, 2], "other": [2, 0]}
    rows = csv_rows(client.get("/api/feedback/trends/series.csv?period=month"))
    assert rows[0] == [
        "period_start",
        "complete",
        "reports_begin",
        "value",
        "servers",
        "servers_withheld",
    ]
    assert rows[3:5] == [
        ["2026-10-01", "true", "", "10.11", "2", "false"],
        ["2026-10-01", "true", "", "other", "0", "false"],
    ]
    chart = csv_rows(client.get("/api/feedback/charts/series.csv?period=month"))
    assert chart[3:5] == [
        ["2026-10-01", "true", "", "10.11", "2", "false"],
        ["2026-10-01", "true", "", "other", "0", "false"],
    ]


def test_no_trend_over_time_publishes_a_zero_beside_a_withheld_count(client, two_months):
    """A 0 only where the period's total shows it (no cell of that period is withheld):
    beside a withheld count it would tell the two apart."""
    for dimension in OVER_TIME:
        trend = client.get(f"/api/feedback/trends/{dimension}.json?period=month").json()
        columns = list(zip(*trend["values"].values(), strict=True))
        for column in columns:
            assert not (0 in column and None in column), dimension


def test_active_servers_under_the_minimum_are_withheld(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    for _ in range(3):
        ReportFactory(received_at=at(date(2026, 10, 5)))
    for _ in range(6):
        ReportFactory(received_at=at(date(2026, 10, 12)))
    update_rollups(today=TODAY)
    rows = csv_rows(client.get("/api/feedback/charts/active.csv?period=week"))
    assert [[row[0], *row[-2:]] for row in rows[1:3]] == [
        ["2026-10-05", "", "true"],
        ["2026-10-12", "6", "false"],
    ]
    for period in ("day", "week"):
        trend = client.get(f"/api/feedback/trends/servers.json?period={period}").json()
        assert trend["values"]["servers"] == [None, 6], period
    body = client.get("/api/feedback/charts/active.json?period=week").json()
    assert body["rows"][:2] == [["2026-10-05", "fewer than 5"], ["2026-10-12", 6]]


def cpu_interval(label: str) -> tuple[float, float]:
    if label == "any number":
        return 1, math.inf
    if label.startswith("more than "):
        return int(label.removeprefix("more than ")) + 1, math.inf
    low, _, high = label.partition("–")
    return int(low), int(high or low)


def test_cpu_ranges_over_time_are_one_ordered_disjoint_set(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    week_a, week_b = date(2026, 10, 6), date(2026, 10, 13)
    # Alone, week A would merge into "1" and "3-4", week B into "1-2" and "5-8".
    for cpus, servers in {1: 5, 4: 5}.items():
        for _ in range(servers):
            ReportFactory(received_at=at(week_a), cpu_count=cpus)
    for cpus, servers in {1: 2, 2: 3, 8: 5}.items():
        for _ in range(servers):
            ReportFactory(received_at=at(week_b), cpu_count=cpus)
    update_rollups(today=TODAY)
    trend = client.get("/api/feedback/trends/cpu.json?period=week").json()
    intervals = [cpu_interval(label) for label in trend["values"]]
    for (_, high), (low, _) in pairwise(intervals):
        assert high < low, trend["values"]
    # the ranges of the last complete week under the names its breakdown gives them, and
    # week A's servers outside them in their own bucket (issue 49: one name everywhere)
    # (none where the week's published servers tell it is 0)
    assert trend["values"] == {"1–2": [5, 5], "3–4": [5, 0], "5–8": [0, 5]}
    rows = csv_rows(client.get("/api/feedback/trends/cpu.csv?period=week"))
    assert [row[3] for row in rows[1:]] == ["1–2", "3–4", "5–8"] * 2


def test_snapshot_etag_is_its_published_sha256(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 9, 28)))
    ReportFactory(received_at=at(date(2026, 10, 5)))
    update_rollups(today=TODAY)
    publish_complete_months(today=TODAY)
    snapshot = Snapshot.objects.get()
    for fmt, digest in (("csv", snapshot.csv_sha256), ("json", snapshot.sha256)):
        url = f"/api/feedback/snapshots/2026-10.{fmt}"
        response = client.get(url)
        assert response["ETag"] == f'"{digest}"', fmt
        assert hashlib.sha256(response.content).hexdigest() == digest, fmt
        again = client.get(url, headers={"if-none-match": f'"{digest}"'})  # a cache hit
        assert again.status_code == 304 and again["ETag"] == f'"{digest}"', fmt


def test_the_key_figure_says_when_reports_begin_inside_its_window(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    yesterday = timezone.localdate() - timedelta(days=1)
    first = yesterday - timedelta(days=20)
    ReportFactory(received_at=at(first))
    ReportFactory(received_at=at(yesterday))
    update_rollups()
    response = client.get("/feedback/?window=365d")
    # The window is said to begin with the reports, not a year earlier (issue 49).
    assertContains(
        response,
        f"<li><strong>2</strong> servers sent a full report in the 365 complete days from {first} "
        f"to {yesterday}</li>",
        html=True,
    )


def test_a_range_has_one_name_in_every_file_and_page_of_a_month(client, settings):
    """Issue 49: the top CPU range was "17 to 64" in the breakdown's CSV and "more than 16" in
    the trend CSV for the same month. A month's ranges are named once
    (``feedback.anonymity.ordered_ranges``), whichever page or file shows them."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    october, september = date(2026, 10, 7), date(2026, 9, 21)
    for cpus, servers in {1: 5, 12: 5, 24: 3, 48: 2}.items():
        for _ in range(servers):
            ReportFactory(received_at=at(october), cpu_count=cpus)
    for _ in range(5):  # another month's servers in a bucket October has none in
        ReportFactory(received_at=at(september), cpu_count=100)
    update_rollups(today=TODAY)
    names = ["1", "9–16", "17–64"]
    breakdown = csv_rows(client.get("/api/feedback/charts/b-cpu.csv?period=month"))
    assert [row[2] for row in breakdown[1:]] == names
    trend = client.get("/api/feedback/trends/cpu.json?period=month").json()
    assert trend["periods"] == ["2026-09-01", "2026-10-01"]
    # September's servers keep a column of their own, under their bucket's own name
    assert trend["values"] == {
        "1": [0, 5],
        "9–16": [0, 5],
        "17–64": [0, 5],
        "more than 64": [5, 0],
    }
    rows = csv_rows(client.get("/api/feedback/trends/cpu.csv?period=month"))
    assert [
        row[3] for row in rows[1:] if row[0] == "2026-10-01" and row[4] not in ("", "0")
    ] == names
    page = client.get("/feedback/")
    (chart,) = [c for s in page.context["sections"] for c in s["charts"] if c["id"] == "b-cpu"]
    assert [row[0] for row in chart["table"]["rows"]] == names


def test_coinciding_adoption_lines_have_their_own_dash_and_marker():
    """Issue 49: two releases with the same figures drew one line over the other. Each
    line of the chart has its own dash pattern and point marker (the canvas draws them as
    the spec gives them), and the data table beside it lists both releases."""
    days = ["2026-10-04", "2026-10-11", "2026-10-18"]
    versions = [f"11.4.{patch}" for patch in range(1, 13)]
    adoption = {
        "labels": days,
        "series": {version: [6, 7, 8] for version in versions},  # twelve coinciding lines
        "released": dict.fromkeys(versions, "2026-09-01"),
        "servers": [20, 20, 20],
    }
    chart = charts._adoption({"reports_begin": "2026-09-19"}, adoption)
    assert chart["type"] == "line"
    styles = [(json.dumps(d["dash"]), d["point"]) for d in chart["datasets"]]
    assert len(set(styles)) == len(versions), styles
    first, second = chart["datasets"][:2]
    assert first["data"] == second["data"]
    assert first["dash"] != second["dash"] and first["point"] != second["point"]
    assert chart["table"]["headers"] == ["Period", *versions]
    assert chart["table"]["rows"][0] == ["2026-10-04", *[6] * len(versions)]


def test_no_withheld_range_over_time_can_be_worked_out_from_the_servers(client, settings):
    """Issue 49 (complementary suppression): the servers of each period are published, so
    a range withheld alone beside published ranges could be worked out from them; the
    smallest published range is withheld with it."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    week_a, week_b = date(2026, 10, 6), date(2026, 10, 13)
    for cpus, servers in {1: 7, 4: 3, 8: 5}.items():
        for _ in range(servers):
            ReportFactory(received_at=at(week_a), cpu_count=cpus)
    for cpus, servers in {1: 5, 8: 5}.items():
        for _ in range(servers):
            ReportFactory(received_at=at(week_b), cpu_count=cpus)
    update_rollups(today=TODAY)
    servers = client.get("/api/feedback/trends/servers.json?period=week").json()
    assert servers["values"]["servers"] == [15, 10]  # published beside the ranges
    trend = client.get("/api/feedback/trends/cpu.json?period=week").json()
    # 3-4 alone withheld in week A would be 15 - 7 - 5 = 3: 5-8 is withheld with it
    assert trend["values"] == {"1": [7, 5], "3–4": [None, 0], "5–8": [None, 5]}
