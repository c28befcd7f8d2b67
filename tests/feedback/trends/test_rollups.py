from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission
from pytest_django.asserts import assertContains

from feedback.anonymity import merge_small_buckets
from feedback.trends import data
from feedback.trends.models import Rollup
from feedback.trends.periods import period_start
from feedback.trends.rollups import recompute, update_rollups
from feedback.trends.versioning import bump_cache_version
from releases.models import Release, Series
from tests.feedback.factories import ReportFactory, ServerFactory
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
MARCH_4 = datetime(2026, 3, 4, 12, tzinfo=UTC)  # a Wednesday


def counts(period, start, dimension):
    return dict(
        Rollup.objects.filter(period=period, period_start=start, dimension=dimension).values_list(
            "value", "servers"
        )
    )


def test_period_boundaries():
    assert period_start("week", date(2026, 3, 4)) == date(2026, 3, 2)
    assert period_start("month", date(2026, 3, 31)) == date(2026, 3, 1)
    assert period_start("day", date(2026, 3, 4)) == date(2026, 3, 4)


def test_a_server_is_counted_once_per_period_however_often_it_reports():
    server = ServerFactory()
    for hours in [0, 1, 30]:
        ReportFactory(server=server, received_at=MARCH_4 + timedelta(hours=hours))
    ReportFactory(received_at=MARCH_4, version_minor=6, version="10.6.1-MariaDB", version_patch=1)
    update_rollups()
    assert counts("day", date(2026, 3, 4), "servers") == {"": 2}
    assert counts("day", date(2026, 3, 5), "servers") == {"": 1}
    assert counts("week", date(2026, 3, 2), "servers") == {"": 2}
    assert counts("month", date(2026, 3, 1), "series") == {"10.11": 1, "10.6": 1}
    assert counts("month", date(2026, 3, 1), "feature") == {"JSON": 2}  # GIS was 0
    assert counts("month", date(2026, 3, 1), "memory") == {"4–8 GiB": 2}


def test_test_traffic_and_startup_reports_count_correctly():
    """Issue 60: one count of servers per period for every chart (December had 49 active
    servers but 47 in the series and exposure charts: a server was counted by any report
    but broken down by its full report). A startup or shutdown report alone counts no
    server; a server with a full report counts once, in the total and in each breakdown."""
    ReportFactory(is_test=True)
    ReportFactory(
        kind="startup", version="", version_major=None, version_minor=None, version_patch=None
    )
    restarted = ReportFactory()
    ReportFactory(
        server=restarted.server,
        kind="startup",
        version="",
        version_major=None,
        version_minor=None,
        version_patch=None,
    )
    ReportFactory()
    update_rollups()
    assert counts("month", date(2026, 3, 1), "servers") == {"": 2}
    assert counts("month", date(2026, 3, 1), "series") == {"10.11": 2}
    assert counts("month", date(2026, 3, 1), "version") == {"10.11.6": 2}


def test_recompute_is_idempotent():
    ReportFactory.create_batch(3)
    update_rollups()
    before = list(
        Rollup.objects.values_list(
            "period", "period_start", "dimension", "value", "servers"
        ).order_by("pk")
    )
    recompute("month", date(2026, 3, 1))
    recompute("month", date(2026, 3, 1))
    after = list(
        Rollup.objects.values_list("period", "period_start", "dimension", "value", "servers")
    )
    assert sorted(after) == sorted(before)


def test_only_periods_touched_by_new_reports_are_recomputed():
    ReportFactory(received_at=datetime(2026, 1, 10, tzinfo=UTC))
    update_rollups(today=date(2026, 3, 12))
    january_ids = set(Rollup.objects.filter(period_start__month=1).values_list("pk", flat=True))
    ReportFactory(received_at=datetime(2026, 3, 10, tzinfo=UTC))
    # the day, week and month of the new report, the 7-day windows ending on 10, 11 and
    # 12 March, and the 30, 90 and 365-day windows that end on the last complete day
    assert update_rollups(today=date(2026, 3, 12)) == 3 + 3 + 3
    assert (
        set(Rollup.objects.filter(period_start__month=1).values_list("pk", flat=True))
        == january_ids
    )
    assert update_rollups(today=date(2026, 3, 12)) == 0  # nothing new


def test_small_buckets_are_merged_into_other_everywhere(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    for _ in range(6):
        ReportFactory(architecture="x86_64")
    for _ in range(2):
        ReportFactory(architecture="riscv64")
    update_rollups()
    assert merge_small_buckets({"x86_64": 6, "riscv64": 2, "s390x": 1}) == {"x86_64": 6, "other": 3}
    trend = client.get("/api/feedback/trends/architecture?period=month").json()
    # over time, "other" is a count like any other: under the minimum it is withheld, and
    # since the month's published total (8) and x86_64's 6 would give it away, x86_64 is
    # withheld with it (complementary suppression)
    assert trend["values"] == {"x86_64": [None], "other": [None]}
    csv_text = client.get("/api/feedback/trends/architecture.csv?period=month").content.decode()
    assert "riscv64" not in csv_text and "other" in csv_text
    page = client.get("/feedback/").content.decode()
    assert "riscv64" not in page


def test_ten_servers_over_a_few_weeks_make_a_dashboard(
    client, settings, django_assert_max_num_queries
):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    start = datetime(2026, 2, 2, tzinfo=UTC)
    for number in range(10):
        server = ServerFactory()
        minor = 11 if number < 6 else 4
        for week in range(4):
            ReportFactory(
                server=server,
                received_at=start + timedelta(weeks=week, hours=number),
                version_major=10 if minor == 11 else 11,
                version_minor=minor,
            )
    update_rollups()
    response = client.get("/feedback/?period=week")
    dashboard = response.context["data"]
    assert dashboard["active"] == [10, 10, 10, 10]
    # the four 11.4 servers are too few to show, in "other" or on their own; the published
    # total (10) less 10.11's 6 would give them away, so 10.11 is withheld with them
    assert dashboard["series_over_time"] == {"10.11": [None] * 4, "other": [None] * 4}
    assertContains(
        response,
        '<canvas data-chart="active" role="img" '
        'aria-label="Active servers: chart; the same figures are in the table below"></canvas>',
        html=True,
    )
    first_week = '<tr><th scope="row">2026-02-02</th><td class="num">10</td></tr>'
    assertContains(response, first_week, html=True)


def test_dashboard_query_count_does_not_grow_with_the_data(client, django_assert_max_num_queries):
    ReportFactory.create_batch(5)
    update_rollups()
    with django_assert_max_num_queries(12) as small:
        client.get("/feedback/")
    ReportFactory.create_batch(60, received_at=datetime(2026, 4, 4, tzinfo=UTC))
    update_rollups()
    bump_cache_version()
    with django_assert_max_num_queries(12) as large:
        client.get("/feedback/")
    assert len(large.captured_queries) == len(small.captured_queries)


def test_release_adoption_and_eol_share(client, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    eol = Series.objects.create(version="10.6", status="eol", eol_date=date(2026, 7, 6))
    Release.objects.create(series=eol, version="10.6.1", release_date=date(2026, 3, 1))
    ReportFactory(version_minor=6, version_patch=1, version="10.6.1-MariaDB")
    ReportFactory()
    update_rollups()
    dashboard = data.dashboard("month", today=date(2026, 11, 22))
    assert dashboard["eol"] == {
        "servers": 1,
        "share": 50.0,
        "series": ["10.6"],
        "by_distribution": [{"distribution": "Debian", "servers": 2, "eol": 1, "share": 50.0}],
    }
    release = Release.objects.get()
    adoption = data.load_adoption(date(2026, 11, 22))
    first_day = data.first_report_day()
    assert first_day > release.release_date
    # released before the first report: its first days were never seen, so no figure
    reach = data.days_to_reach([release], adoption, thresholds=(1,), first_day=first_day)
    assert reach[0]["reached"][1] == data.BEFORE_DATA
    # had the reports begun on its release day, it was seen three days later
    reach = data.days_to_reach([release], adoption, thresholds=(1,), first_day=date(2026, 3, 1))
    assert reach[0]["reached"][1] == 3


def test_privacy_page_and_staff_view(client, admin_client):
    assert b"fewer than 5 servers" in client.get("/feedback/privacy/").content
    assert client.get("/feedback/staff/").status_code == 302  # staff only
    assert admin_client.get("/feedback/staff/").status_code == 200


def test_the_staff_page_asks_the_permissions_the_admin_asks(client):
    """Issue 47, item 13: a staff account with no permission read user info and rejected
    raw reports here while the admin refused it the same rows."""
    clerk = UserFactory(is_staff=True)
    client.force_login(clerk)
    assert client.get("/admin/feedback/rawreport/").status_code == 403
    assert client.get("/feedback/staff/").status_code == 403
    clerk.user_permissions.add(Permission.objects.get(codename="view_report"))
    clerk = type(clerk).objects.get(pk=clerk.pk)  # permissions are cached on the object
    client.force_login(clerk)
    assert client.get("/feedback/staff/").status_code == 403  # the raw reports too
    clerk.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_rawreport", "view_testtrafficrule"])
    )
    client.force_login(type(clerk).objects.get(pk=clerk.pk))
    assert client.get("/admin/feedback/rawreport/").status_code == 200
    assert client.get("/feedback/staff/").status_code == 200


def test_unknown_dimension_and_period(client):
    assert client.get("/api/feedback/trends/shoe-size").status_code == 404
    assert client.get("/api/feedback/trends/os?period=year").status_code == 400
