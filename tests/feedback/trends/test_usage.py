"""Usage statistics a MariaDB developer can trust: complete periods, rolling windows,
normalised dimensions, adoption, end-of-life exposure, downloads and snapshots."""

import csv
import hashlib
import io
import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone
from pytest_django.asserts import assertContains

from feedback import dimensions
from feedback.dimensions import values_of
from feedback.parser import parse_report
from feedback.trends import data, rollups
from feedback.trends.models import PublishedSnapshotError, Rollup, Snapshot
from feedback.trends.rollups import update_rollups
from feedback.trends.snapshots import publish_complete_months
from releases.models import Release, Series
from tests.feedback.captures import captured_requests, data_part, split_http
from tests.feedback.factories import ReportFactory, ServerFactory

pytestmark = pytest.mark.django_db
TODAY = date(2026, 11, 22)


def at(day: date, hour=12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def real_full_report() -> dict:
    report = parse_report(data_part(split_http(captured_requests()["full-10.11-debian12"])[2]))
    fields = [name for name in dimensions.REPORT_FIELDS if name not in ("server_id", "country")]
    return {name: getattr(report, name) for name in fields} | {"country": "FI"}


def test_the_real_capture_maps_to_the_published_values():
    values = values_of(real_full_report())
    assert values["series"] == ["10.11"]
    assert values["version"] == ["10.11.19"]  # split from "-MariaDB-0+deb12u1"
    assert values["build"] == ["Debian"]
    assert values["os"] == ["Linux"]
    assert values["distribution"] == ["Debian"]
    assert values["distribution_release"] == ["Debian 12"]
    assert values["architecture"] == ["x86_64"]
    assert values["cpu"] == ["2"]
    assert values["memory"] == ["16–32 GiB"]  # 25,276,514,304 bytes
    assert values["engine"] == ["Aria", "InnoDB", "MEMORY"]
    # plugins come from the plugin rows: not the engines, not INFORMATION_SCHEMA tables
    assert {"unix_socket", "partition", "wsrep", "inet6", "uuid"} <= set(values["plugin"])
    assert not {"InnoDB", "Aria", "INNODB_TRX", "FEEDBACK"} & set(values["plugin"])
    assert values["collation"] == [
        "binary", "latin1_swedish_ci", "utf8mb3_bin", "utf8mb3_general_ci", "utf8mb4_bin",
    ]  # fmt: skip
    assert values["charset"] == ["binary", "latin1", "utf8mb3", "utf8mb4"]
    assert values["distribution_series"] == ["Debian | 10.11"]


@pytest.mark.parametrize(
    ("machine", "expected"),
    [("x86_64", "x86_64"), ("x64", "x86_64"), ("amd64", "x86_64"), ("AMD64", "x86_64"),
     ("arm64", "aarch64"), ("aarch64", "aarch64"), ("i686", "x86"), ("s390x", "s390x")],
)  # fmt: skip
def test_architecture_aliases(machine, expected):
    assert dimensions.architecture(machine) == expected


@pytest.mark.parametrize(
    ("raw", "family", "release"),
    [
        ("os-release: Debian GNU/Linux 12 (bookworm)", "Debian", "Debian 12"),
        ("os-release: Ubuntu 24.04.3 LTS", "Ubuntu", "Ubuntu 24.04"),
        ("lsb: Ubuntu 22.04.5 LTS", "Ubuntu", "Ubuntu 22.04"),
        ("centos: CentOS Linux release 8.2.2004 (Core) ", "CentOS", "CentOS 8"),
        ("os-release: Rocky Linux 9.6 (Blue Onyx)", "Rocky Linux", "Rocky Linux 9"),
        ("os-release: AlmaLinux 9.6 (Sage Margay)", "AlmaLinux", "AlmaLinux 9"),
        ("os-release: Fedora Linux 42 (Server Edition)", "Fedora", "Fedora 42"),
        ("os-release: Arch Linux", "Arch Linux", "Arch Linux"),
    ],
)
def test_distribution_family_and_release(raw, family, release):
    assert dimensions.distribution(raw) == (family, release)


def test_servers_without_a_distribution_count_under_their_system():
    assert dimensions.distribution("", "Windows") == ("Windows", "Windows")
    assert dimensions.operating_system("Darwin") == "macOS"


@pytest.mark.parametrize(
    ("suffix", "builder"),
    [("-MariaDB-0+deb12u1", "Debian"), ("-MariaDB-0ubuntu0.24.04.1", "Ubuntu"),
     ("-MariaDB-1:10.11.6+maria~ubu2204", "MariaDB repository"),
     ("-MariaDB-log", dimensions.UPSTREAM_BUILD), ("-MariaDB", dimensions.UPSTREAM_BUILD)],
)  # fmt: skip
def test_version_suffixes_name_the_builder(suffix, builder):
    assert dimensions.build(suffix) == builder


def test_rollups_are_rebuilt_after_a_mapping_change(monkeypatch):
    ReportFactory.create_batch(2, architecture="amd64")
    update_rollups(today=TODAY)
    assert Rollup.objects.get(period="month", dimension="architecture").value == "x86_64"

    monkeypatch.setitem(dimensions.ARCHITECTURES, "amd64", "amd64 (renamed)")
    monkeypatch.setattr(rollups, "MAPPING_VERSION", "changed")
    update_rollups(today=TODAY)  # no new report: only the mapping changed
    assert Rollup.objects.get(period="month", dimension="architecture").value == "amd64 (renamed)"


def test_the_dashboard_defaults_to_the_last_complete_period(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    today = timezone.localdate()
    last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=3)
    for _ in range(3):
        ReportFactory(received_at=at(last_month), version_minor=6, version_patch=1)
    ReportFactory(received_at=at(today, hour=0), version_minor=11)  # this month, so far
    update_rollups()
    response = client.get("/feedback/")
    dashboard = response.context["data"]
    assert dashboard["selected"]["from"] == last_month.replace(day=1).isoformat()
    assert dashboard["selected"]["complete"] is True
    assert dashboard["latest_total"] == 3
    assert dashboard["breakdowns"]["series"] == {"10.6": 3}
    assert dashboard["display_labels"][-1].endswith("(incomplete)")
    assert dashboard["active"][-1] == 1
    this_month = today.replace(day=1).isoformat()
    assertContains(response, f'<th scope="row">{this_month} (incomplete)</th>', html=True)


def test_rolling_windows_echo_and_count_complete_days_only(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    today = timezone.localdate()
    ReportFactory(received_at=at(today - timedelta(days=2)), architecture="aarch64")
    ReportFactory(received_at=at(today - timedelta(days=45)), architecture="x86_64")
    ReportFactory(received_at=at(today, hour=0), architecture="s390x")  # today: incomplete
    update_rollups()

    trend = client.get("/api/feedback/trends/architecture?window=30d").json()
    assert trend["window"] == "30d"
    assert trend["values"] == {"aarch64": 1}
    assert trend["to"] == (today - timedelta(days=1)).isoformat()
    assert client.get("/api/feedback/trends/architecture?window=90d").json()["values"] == {
        "aarch64": 1,
        "x86_64": 1,
    }
    summary = client.get("/api/feedback/summary?window=30d").json()
    assert summary["window"] == "30d"
    assert summary["breakdowns"]["architecture"] == {"aarch64": 1}
    dashboard = client.get("/feedback/?window=365d").context["data"]
    assert dashboard["window"] == "365d"
    assert dashboard["breakdowns"]["architecture"] == {"aarch64": 1, "x86_64": 1}
    assert client.get("/api/feedback/summary?window=7y").status_code == 400
    assert client.get("/api/feedback/trends/os?window=7y").status_code == 400


def test_memory_and_cpu_buckets_are_ordered_by_size(settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    for gib, cpus in [(64, 32), (64, 32), (64, 32), (2, 1), (8, 4), (8, 4)]:
        ReportFactory(memory_bytes=gib * 1024**3, cpu_count=cpus)
    update_rollups(today=TODAY)
    breakdowns = data.dashboard("month", today=TODAY)["breakdowns"]
    assert list(breakdowns["memory"]) == ["≤ 2 GiB", "4–8 GiB", "32–64 GiB"]
    assert list(breakdowns["cpu"]) == ["1", "3–4", "17–32"]


def test_summary_api_names_plugin_engine_and_collation(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(collations={"utf8_general_ci": 3})
    summary = client.get("/api/feedback/summary").json()
    breakdowns = summary["breakdowns"]
    assert breakdowns["plugin"] == {"unix_socket": 1}
    assert breakdowns["engine"] == {"Aria": 1, "InnoDB": 1}
    assert breakdowns["collation"] == {"utf8mb3_general_ci": 1}
    assert breakdowns["charset"] == {"utf8mb3": 1}
    assert breakdowns["version"] == {"10.11": 1}  # the contract: version is the series
    assert breakdowns["distribution"] == {"Debian": 1}


@pytest.fixture
def weekly_servers():
    """Eight servers on Debian, each reporting once a week on its own weekday; on
    3 March 2026 10.11.7 is released and the servers upgrade one a day from 4 March."""
    series = Series.objects.create(version="10.11", status="stable")
    Release.objects.create(series=series, version="10.11.6", release_date=date(2026, 1, 5))
    Release.objects.create(series=series, version="10.11.7", release_date=date(2026, 3, 3))
    start = date(2026, 2, 2)
    for number in range(8):
        server = ServerFactory()
        upgrade = date(2026, 3, 4) + timedelta(days=number)
        day = start + timedelta(days=number % 7)
        while day < date(2026, 4, 6):
            patch = 7 if day >= upgrade else 6
            ReportFactory(
                server=server,
                received_at=at(day),
                version_patch=patch,
                version=f"10.11.{patch}-MariaDB-0+deb12u1",
            )
            day += timedelta(days=7)


def test_adoption_counts_servers_seen_in_seven_day_windows(settings, weekly_servers):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    update_rollups(today=date(2026, 4, 6))
    # on no single day do five servers report, but within any 7 days all eight do
    assert (
        max(
            Rollup.objects.filter(period="day", dimension="servers").values_list(
                "servers", flat=True
            )
        )
        <= 2
    )
    dashboard = data.dashboard("week", today=date(2026, 4, 6))
    reach = {row["version"]: row["reached"] for row in dashboard["days_to_reach"]}
    # 10.11.6 came out on 5 January, before the reports began (2 February): no figure
    assert reach["10.11.6"][5] == data.BEFORE_DATA
    assert reach["10.11.7"][5] is not None and reach["10.11.7"][5] < 20
    assert reach["10.11.7"][100] is None  # never 100 servers
    lag = {row["version"]: row["lags"] for row in dashboard["upgrade_lag"]}
    # half of the eight had upgraded once the fourth (4 March + 3 days) reported 10.11.7
    assert 4 <= lag["10.11.7"]["Debian"] <= 14
    assert lag["10.11.6"]["Debian"] == data.BEFORE_DATA
    adoption = dashboard["adoption"]
    # the chart starts with the first 7-day window wholly after the first report (2 Feb)
    assert adoption["labels"][0] >= "2026-02-08"
    assert adoption["series"]["10.11.7"][-1] == 8
    # nobody runs 10.11.6 any more: withheld as "fewer than 5" (a gap), never drawn as 0
    assert adoption["series"]["10.11.6"][-1] is None
    # before 10.11.7 was released it has no point at all
    released = adoption["labels"].index(min(d for d in adoption["labels"] if d >= "2026-03-03"))
    assert adoption["series"]["10.11.7"][:released] == [None] * released


def test_end_of_life_exposure_per_distribution(settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 2
    Series.objects.create(version="10.5", status="eol", eol_date=date(2025, 6, 24))
    for _ in range(2):
        ReportFactory(version_minor=5, version_patch=9)
    for _ in range(2):
        ReportFactory(distribution="os-release: Ubuntu 24.04.3 LTS")
    ReportFactory(distribution="os-release: Alpine Linux v3.19", version_minor=5)
    update_rollups(today=TODAY)
    eol = data.dashboard("month", today=TODAY)["eol"]
    assert eol["by_distribution"] == [
        {"distribution": "Debian", "servers": 2, "eol": 2, "share": 100.0},
        # fewer than 2 on an end-of-life series: withheld ("fewer than 2"), never 0
        {"distribution": "Ubuntu", "servers": 2, "eol": None, "share": None},
        {"distribution": "other", "servers": 1, "eol": None, "share": None},  # Alpine: 1 < 2
    ]


def test_every_chart_downloads_as_csv_and_json_with_the_same_figures(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    today = timezone.localdate()
    series = Series.objects.create(version="10.11", status="stable")
    Release.objects.create(series=series, version="10.11.6", release_date=today - timedelta(40))
    for offset in (3, 10, 40):
        ReportFactory(received_at=at(today - timedelta(days=offset)))
    update_rollups()
    response = client.get("/feedback/?period=week&window=90d")
    charts = [chart for section in response.context["sections"] for chart in section["charts"]]
    assert {
        "active",
        "series",
        "b-distribution",
        "s-plugin",
        "s-collation",
        "adoption",
        "eol",
        "reach",
        "lag",
    } <= {chart["id"] for chart in charts}
    for chart in charts:
        as_json = client.get(chart["downloads"]["json"])
        assert as_json.status_code == 200, chart["id"]
        body = as_json.json()
        assert body["window"] == "90d" and body["licence"]["name"] == "CC BY 4.0"
        assert body["rows"] == json.loads(json.dumps(chart["table"]["rows"]))
        assert body["scope"]  # every download says what it counts
        as_csv = client.get(chart["downloads"]["csv"])
        lines = list(csv.reader(io.StringIO(as_csv.content.decode())))
        # the header row first (a notebook's read_csv needs it there), typed cells (no
        # "fewer than N", no "%", no prose in a period); the licence in headers
        assert lines[0][0] in ("period_start", "date", "release"), chart["id"]
        assert len(lines) > 1, chart["id"]
        cells = [cell for line in lines[1:] for cell in line]
        assert not [c for c in cells if "fewer than" in c or c.endswith("%")]
        if lines[0][0] in ("period_start", "date"):  # ISO dates, nothing after them
            assert all(date.fromisoformat(line[0]) for line in lines[1:])
        assert as_csv["Link"] == '<https://creativecommons.org/licenses/by/4.0/>; rel="license"'
    assert client.get("/api/feedback/charts/nothing.json").status_code == 404


def test_small_buckets_are_merged_in_downloads_and_snapshots(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 3
    ReportFactory(received_at=at(date(2026, 9, 28)))  # the reports begin in September
    for _ in range(3):
        ReportFactory(received_at=at(date(2026, 10, 5)), architecture="x86_64")
    ReportFactory(received_at=at(date(2026, 10, 5)), architecture="riscv64")
    update_rollups(today=TODAY)
    publish_complete_months(today=TODAY)
    snapshot = client.get("/api/feedback/snapshots/2026-10.json").json()
    assert snapshot["dimensions"]["architecture"]["servers"] == {"x86_64": 3, "other": 1}
    csv_text = client.get("/api/feedback/snapshots/2026-10.csv").content.decode()
    assert "riscv64" not in csv_text and "2026-10,architecture,other,1,false,4,25.0" in csv_text


def test_monthly_snapshots_are_published_once_and_never_change(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 9, 29)))  # the reports begin late in September
    ReportFactory(received_at=at(date(2026, 10, 5)))
    ReportFactory(received_at=at(date(2026, 11, 2)))
    update_rollups(today=TODAY)
    # September is over but began before the first report: no month's figure for two days
    assert [s.month for s in publish_complete_months(today=TODAY)] == [date(2026, 10, 1)]
    first = client.get("/api/feedback/snapshots/2026-10.json")
    assert first.json()["servers"] == 1
    assert first.json()["licence"]["url"] == "https://creativecommons.org/licenses/by/4.0/"

    ReportFactory(received_at=at(date(2026, 10, 6)))  # a late report for October
    update_rollups(today=TODAY)
    assert publish_complete_months(today=TODAY) == []  # November is not over
    assert client.get("/api/feedback/snapshots/2026-10.json").content == first.content
    assert (
        Rollup.objects.get(
            period="month", period_start=date(2026, 10, 1), dimension="servers"
        ).servers
        == 2
    )

    snapshot = Snapshot.objects.get()
    snapshot.data["servers"] = 99
    with pytest.raises(PublishedSnapshotError):
        snapshot.save()
    with pytest.raises(PublishedSnapshotError):
        Snapshot.objects.update(sha256="")
    listing = client.get("/api/feedback/snapshots/").json()
    assert [s["month"] for s in listing["snapshots"]] == ["2026-10"]
    files = listing["snapshots"][0]["files"]
    assert files["json"]["sha256"] == snapshot.sha256
    assert hashlib.sha256(first.content).hexdigest() == snapshot.sha256  # what was served
    as_csv = client.get(files["csv"]["url"])
    assert hashlib.sha256(as_csv.content).hexdigest() == files["csv"]["sha256"]
    assert client.get("/api/feedback/snapshots/2026-13.json").status_code == 404
    assert client.get("/api/feedback/snapshots/2026-09.json").status_code == 404


def test_hostile_query_values_get_a_clear_answer_not_a_500(client):
    assert client.get("/feedback/?period=nonsense&window=nonsense").status_code == 200  # defaults
    # A NUL byte anywhere is refused before any view runs (core.hostile).
    assert client.get("/feedback/?period=%00&window=%00").status_code == 400
    for url in [
        "/api/feedback/charts/active.json?period=%00",
        "/api/feedback/charts/b-os.csv?window=1e9",
        "/api/feedback/trends/os.json?window=%00",
        "/api/feedback/summary?window=%FF",
    ]:
        response = client.get(url)
        assert response.status_code == 400, url
        if response["Content-Type"].startswith("application/json"):
            assert "error" in response.json()
        else:
            assert "NUL" in response.content.decode()
    assert client.get("/api/feedback/snapshots/0000-00.json").status_code == 404


def test_the_rebuild_command_counts_everything_again_and_publishes_months(settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    ReportFactory(received_at=at(date(2026, 2, 20)))
    ReportFactory(received_at=at(date(2026, 3, 4)))
    out = io.StringIO()
    call_command("rebuild_usage_rollups", stdout=out, stderr=io.StringIO())
    march = Rollup.objects.filter(period="month", dimension="servers", period_start="2026-03-01")
    assert march.get().servers == 1
    assert "monthly snapshots published" in out.getvalue()
    # February began before the first report: only March is a whole month of data
    assert Snapshot.objects.get().month == date(2026, 3, 1)


def test_the_dashboard_never_shows_a_withheld_share_or_a_table_that_cannot_fill(client, settings):
    """The end-of-life share of a withheld count says "withheld", not "fewer than N" (a
    percentage is no count); a release table whose every release predates the reports is
    one sentence saying when it fills in, until a release after that day is listed."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 2
    Series.objects.create(version="10.5", status="eol", eol_date=date(2025, 6, 24))
    series = Series.objects.create(version="10.11", status="stable")
    Release.objects.create(series=series, version="10.11.5", release_date=date(2026, 8, 1))
    for _ in range(2):
        ReportFactory(received_at=at(date(2026, 10, 5)), version_minor=5, version_patch=9)
    for _ in range(2):
        ReportFactory(
            received_at=at(date(2026, 10, 5)), distribution="os-release: Ubuntu 24.04.3 LTS"
        )
    update_rollups()
    page = client.get("/feedback/")
    charts = [chart for section in page.context["sections"] for chart in section["charts"]]
    [eol_chart] = [chart for chart in charts if chart["id"] == "eol"]
    # Ubuntu's servers run no end-of-life series, which the published total shows: 0.
    assert ["Ubuntu", 2, 0, "0.0%"] in eol_chart["table"]["rows"]
    sentence = (
        "Every release listed here was published before the reports began (2026-10-05), so "
        "none has a figure: this table fills in as servers pick up the first release "
        "published after that day."
    )
    assertContains(page, f'<p class="table-empty">{sentence}</p>', count=2, html=True)
    assert "before reports began" not in page.content.decode()
    Release.objects.create(series=series, version="10.11.6", release_date=date(2026, 10, 10))
    cache.clear()  # the dashboard's figures are cached until the rollups change
    page = client.get("/feedback/")
    assertContains(page, '<p class="table-empty">', count=0)
    assertContains(page, '<td class="num">before reports began</td>', html=True)
