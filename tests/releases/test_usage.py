from datetime import date

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

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
    return timezone.localdate().replace(day=1)


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
    assertContains(client.get("/download/12.3/"), "No usage reports have been rolled up yet.")
