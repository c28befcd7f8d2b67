"""/feedback/'s exposure figure: per month, the share of reporting servers on a release
that a high or critical advisory affects, overall and per series, withheld (never 0)
under the anonymity minimum, in the chart's table, its CSV and the Data Package."""

import csv
import io
from datetime import date

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from feedback.trends.versioning import bump_cache_version
from security.models import Severity
from tests.feedback.trends.factories import RollupFactory
from tests.releases.factories import ReleaseFactory, SeriesFactory
from tests.security.factories import AffectedRangeFactory

pytestmark = pytest.mark.django_db
SEPTEMBER, OCTOBER = date(2026, 9, 1), date(2026, 10, 1)


@pytest.fixture
def field(settings):
    """A high advisory affects 10.6 before 10.6.20; a medium one every 10.11 release (not
    counted). September: 5 servers on 10.6.18, 4 on 10.6.20, 6 on 10.11.9, 1 on 10.5.1;
    October: 2 on 10.6.18, 7 on 10.6.20, 6 on 10.11.9. The minimum is 3."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 3
    series = SeriesFactory(version="10.6")
    fix = ReleaseFactory(series=series, version="10.6.20")
    AffectedRangeFactory(series=series, fixed=fix, advisory__rating=Severity.HIGH)
    AffectedRangeFactory(series=SeriesFactory(version="10.11"), advisory__rating=Severity.MEDIUM)
    months = {
        SEPTEMBER: {"10.6.18": 5, "10.6.20": 4, "10.11.9": 6, "10.5.1": 1},
        OCTOBER: {"10.6.18": 2, "10.6.20": 7, "10.11.9": 6},
    }
    for month, versions in months.items():
        RollupFactory(period_start=month, servers=sum(versions.values()))
        for version, servers in versions.items():
            RollupFactory(period_start=month, dimension="version", value=version, servers=servers)


def exposure_rows(client):
    text = client.get("/api/feedback/charts/exposure.csv?period=month").content.decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_the_share_of_affected_servers_per_month_and_series(client, field):
    rows = {(r["period_start"], r["series"]): r for r in exposure_rows(client)}
    september_all = rows[("2026-09-01", "all")]
    assert (september_all["servers"], september_all["affected_servers"]) == ("16", "5")
    assert september_all["affected_share_percent"] == "31.2"
    assert rows[("2026-09-01", "10.6")]["affected_share_percent"] == "55.6"
    # Two affected servers in October: under the minimum, withheld (never 0 or 2).
    october_all = rows[("2026-10-01", "all")]
    assert (
        october_all["affected_servers"] == "" and october_all["affected_servers_withheld"] == "true"
    )
    assert october_all["affected_share_percent"] == ""
    # No 10.11 server is affected by a high or critical advisory: withheld, not 0.
    assert rows[("2026-09-01", "10.11")]["affected_servers"] == ""
    assert rows[("2026-09-01", "10.11")]["affected_servers_withheld"] == "true"
    # 10.5 never has the minimum on its own: counted in "other", whose one server is withheld.
    assert ("2026-09-01", "10.5") not in rows
    assert rows[("2026-09-01", "other")]["servers"] == ""
    assert all(r["affected_servers"] != "0" for r in rows.values())


def test_the_dashboard_shows_the_figures_in_a_table(client, field):
    content = client.get("/feedback/").content.decode()
    assert "Servers on a release with a high or critical security advisory" in content
    table = content.split('id="chart-exposure"')[1].split("</figure>")[0]
    assert '<td class="num">31.2%</td>' in table
    assert "withheld (fewer than 3 affected)" in table


def test_the_data_package_lists_the_exposure_file(client, field):
    package = client.get("/api/feedback/datapackage.json").json()
    resource = next(r for r in package["resources"] if r["name"] == "chart-exposure")
    fields = [f["name"] for f in resource["schema"]["fields"]]
    assert fields == [
        "period_start",
        "complete",
        "series",
        "servers",
        "servers_withheld",
        "affected_servers",
        "affected_servers_withheld",
        "affected_share_percent",
    ]


def test_an_exposure_chart_withheld_in_every_month_says_so(client, settings):
    """Issue 60: the exposure chart was all withheld, an empty frame, with no sentence
    saying why."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 3
    series = SeriesFactory(version="10.6")
    fix = ReleaseFactory(series=series, version="10.6.20")
    AffectedRangeFactory(series=series, fixed=fix, advisory__rating=Severity.HIGH)
    for month in (SEPTEMBER, OCTOBER):  # one affected server a month: under the minimum
        RollupFactory(period_start=month, servers=6)
        RollupFactory(period_start=month, dimension="version", value="10.6.18", servers=1)
        RollupFactory(period_start=month, dimension="version", value="10.6.20", servers=5)
    sentence = (
        "Every month's share is withheld: in each, fewer than 3 of the reporting servers ran "
        "a release a high or critical advisory affects (or none did), too few to publish, so "
        "the chart has no line to draw. The table gives each month."
    )
    page = client.get("/feedback/")
    assertContains(page, f'<p class="chart-note" role="note">{sentence}</p>', html=True)
    body = client.get("/api/feedback/charts/exposure.json?period=month").json()
    assert body["note"] == sentence
    # a month with enough affected servers to publish: the chart draws it, no such sentence
    RollupFactory(period_start=date(2026, 11, 1), servers=6)
    RollupFactory(period_start=date(2026, 11, 1), dimension="version", value="10.6.18", servers=4)
    bump_cache_version()  # as a recount does
    assertNotContains(client.get("/feedback/"), "Every month's share is withheld")
