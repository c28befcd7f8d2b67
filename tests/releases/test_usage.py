from datetime import date, timedelta

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from feedback.trends.models import Rollup
from feedback.trends.series_usage import series_usage
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db


def rollup(period, start, dimension, value, servers):
    Rollup.objects.create(
        period=period, period_start=start, dimension=dimension, value=value, servers=servers
    )


@pytest.fixture
def month():
    """The last complete month: the one the dashboard and the series pages default to."""
    return (timezone.localdate().replace(day=1) - timedelta(days=1)).replace(day=1)


def test_share_and_adoption_from_the_rollups(
    client, month, settings, django_assert_max_num_queries
):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    series = SeriesFactory(version="11.4")
    ReleaseFactory(series=series, version="11.4.8", release_date=date(2025, 8, 6))
    fresh = ReleaseFactory(series=series, version="11.4.9", release_date=date(2026, 10, 1))
    rollup("month", month, "servers", "", 400)
    rollup("month", month, "series", "11.4", 100)
    rollup("month", month, "series", "10.11", 250)
    rollup("day", date(2026, 9, 28), "servers", "", 40)  # the first report
    rollup("week", date(2026, 9, 28), "servers", "", 300)
    rollup("week", date(2026, 10, 5), "servers", "", 320)
    rollup("week", date(2026, 10, 5), "version", "11.4.9", 3)  # under the minimum: not yet adopted
    rollup("week", date(2026, 10, 19), "version", "11.4.9", 12)
    usage = series_usage(
        "11.4", [fresh, series.releases.get(version="11.4.8")], timezone.localdate()
    )
    assert (usage.latest.servers, usage.latest.total, usage.latest.percent) == (100, 400, 25.0)
    assert not usage.is_thin
    newest, older = usage.adoption
    assert (newest.version, newest.first_week, newest.weeks_to_adopt) == (
        "11.4.9",
        date(2026, 10, 19),
        2,
    )
    assert older.before_data and older.weeks_to_adopt is None
    with django_assert_max_num_queries(12):
        response = client.get("/download/11.4/")
    assertContains(response, "100 of the 400 servers that sent")
    assertContains(response, "(25.0%)")
    assertContains(
        response,
        '<meter class="share-meter" min="0" max="100" value="25.0" aria-hidden="true"></meter>',
        html=True,
    )
    assertContains(response, '<td data-label="Picked up">after 2 weeks</td>', html=True)
    assertContains(
        response,
        '<td data-label="Picked up">released before the reports begin (28 Sep 2026)</td>',
        html=True,
    )
    assert "Thin data" not in response.content.decode()


def test_thin_and_small_groups_are_labelled_honestly(client, month, settings):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    SeriesFactory(version="10.6")
    rollup("month", month, "servers", "", 40)
    rollup("month", month, "series", "10.6", 3)
    response = client.get("/download/10.6/")
    assertContains(response, "Fewer than 5 of the 40 servers")
    assertContains(response, "Thin data: only 40 servers reported")
    assert "(7.5%)" not in response.content.decode()


def test_no_reports_yet_says_so(client):
    SeriesFactory(version="12.3")
    assertContains(
        client.get("/download/12.3/"), "No complete month of usage reports has been rolled up yet."
    )


def test_series_page_counts_the_dashboards_periods_from_its_first_report(client, settings):
    """The same complete month and 7 days as the dashboard, the same first report day,
    and no 0 where the dashboard says "fewer than 5"."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 5
    today = timezone.localdate()
    this_month = today.replace(day=1)
    last_month = (this_month - timedelta(days=1)).replace(day=1)
    first_day = last_month + timedelta(days=(3 - last_month.weekday()) % 7 + 7)  # a Thursday
    monday = first_day - timedelta(days=3)
    series = SeriesFactory(version="13.0")
    ReleaseFactory(series=series, version="13.0.2", release_date=first_day - timedelta(days=2))
    rollup("day", first_day, "servers", "", 10)
    rollup("week", monday, "servers", "", 10)
    rollup("week", monday, "version", "13.0.2", 6)
    rollup("month", last_month, "servers", "", 48)  # no server on 13.0 that month
    rollup("month", this_month, "servers", "", 18)  # not over yet
    rollup("month", this_month, "series", "13.0", 7)
    rollup("7d", today - timedelta(days=1), "version", "13.0.2", 6)
    rollup("7d", today, "version", "13.0.2", 3)  # today is not over
    response = client.get("/download/13.0/")
    assertContains(
        response,
        f"Fewer than 5 of the 48 servers that sent a "
        f'<a href="/feedback/">usage report</a> in {last_month:%B %Y} run MariaDB 13.0.',
    )
    assertContains(
        response,
        '<td data-label="Servers on 13.0" class="num">fewer than 5</td>',
        html=True,
        count=1,
    )
    assertNotContains(response, f'<td data-label="Month">{this_month:%b %Y}</td>', html=True)
    assert "0 of the" not in response.content.decode()
    assertContains(
        response,
        '<td data-label="Picked up">released before the reports begin '
        f"({first_day.day} {first_day:%b %Y})</td>",
        html=True,
    )
    window = today - timedelta(days=1)
    label = f"Servers in the 7 days to {window.day} {window:%b %Y}"
    assertContains(response, f'<th scope="col" class="num">{label}</th>', html=True)
    assertContains(response, f'<td data-label="{label}" class="num">6</td>', html=True)
