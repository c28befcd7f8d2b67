import csv
import io
from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.utils import timezone

from tests.feedback.captures import captured_requests
from tests.feedback.factories import ReportFactory

pytestmark = pytest.mark.django_db
UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="


def test_every_fixture_report_appears_in_the_summary(client, settings, fixture_requests, post_raw):
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    for name in ["startup", "full-10.11-debian12", "shutdown"]:
        assert post_raw(fixture_requests[name]).status_code == 200
    summary = client.get("/api/feedback/summary").json()
    assert summary["reports"] == 3
    assert summary["servers"] == 1
    assert summary["breakdowns"]["version"] == {"10.11": 1}
    assert summary["breakdowns"]["os"] == {"Linux": 1}
    assert summary["breakdowns"]["architecture"] == {"x86_64": 1}
    assert summary["period"]["from"] is not None


def test_small_buckets_are_merged_into_other_and_test_traffic_is_excluded(
    client, fixture_requests, post_raw, post_body
):
    post_raw(fixture_requests["full-10.11-debian12"])
    post_body(f"FEEDBACK_SERVER_UID\t{UID}\nFEEDBACK_USER_INFO\tmysql-test\nVERSION\t11.4.2\n\n")
    summary = client.get("/api/feedback/summary").json()
    assert summary["reports"] == 1  # the mysql-test report is not counted
    assert summary["breakdowns"]["version"] == {"other": 1}  # one server < 5: not published alone
    assert "10.11" not in str(summary["breakdowns"])


def test_summary_is_fresh_after_each_report_and_has_cache_headers(
    client, fixture_requests, post_raw, settings
):
    assert client.get("/api/feedback/summary").json()["reports"] == 0
    post_raw(fixture_requests["startup"])
    response = client.get("/api/feedback/summary")
    assert response.json()["reports"] == 1
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"public", "max-age=0", f"s-maxage={settings.API_CACHE_LIVE_SECONDS}"} <= directives


def test_summary_rejects_a_bad_period(client):
    assert client.get("/api/feedback/summary?days=abc").status_code == 400


def test_summary_query_count_is_bounded(
    client, django_assert_max_num_queries, fixture_requests, post_raw
):
    for raw in captured_requests().values():
        post_raw(raw)
    with django_assert_max_num_queries(12):
        client.get("/api/feedback/summary")


@pytest.mark.parametrize(
    ("month", "reason"),
    [
        ("2025-01", "2025-01 is before the reports begin (2026-09-17); "),
        ("2026-08", "2026-08 is before the reports begin (2026-09-17); "),
        ("2030-01", "2030-01 is not complete yet; the last complete month is "),
        ("current", " is not complete yet; the last complete month is "),
    ],
)
def test_a_month_without_complete_reports_is_a_400_naming_why(client, month, reason):
    ReportFactory(received_at=datetime(2026, 9, 17, 12, tzinfo=UTC))
    ReportFactory(received_at=datetime(2026, 9, 1, tzinfo=UTC), is_test=True)  # not counted
    if month == "current":
        month = f"{timezone.localdate():%Y-%m}"
    response = client.get(f"/api/feedback/summary?month={month}")
    assert response.status_code == 400
    assert reason in response.json()["error"]


def test_the_month_of_the_first_report_is_answered(client):
    ReportFactory(received_at=datetime(2026, 9, 17, 12, tzinfo=UTC))
    body = client.get("/api/feedback/summary?month=2026-09").json()
    assert body["servers"] == 1 and body["reports_begin"] == "2026-09-17"


def test_the_summary_is_offered_as_json_and_csv_and_both_answer(client):
    """Issue 60: the page offered ".json or .csv" of /api/feedback/summary, which answered
    404. The JSON is the summary; the CSV the same figures, one typed row per value."""
    day = timezone.localdate() - timedelta(days=3)
    for number in range(6):
        ReportFactory(
            server__uid=f"summary-{number}",
            received_at=datetime.combine(day, time(12), tzinfo=UTC),
            version_minor=11 if number < 5 else 6,
        )
    plain = client.get("/api/feedback/summary").json()
    answer = client.get("/api/feedback/summary.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer.json() == plain
    csv_answer = client.get("/api/feedback/summary.csv")
    assert csv_answer.status_code == 200
    assert csv_answer["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="mariadb-usage-summary-all.csv"' in csv_answer["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(csv_answer.content.decode())))
    assert rows[0] == {
        "period_from": day.isoformat(),
        "period_to": day.isoformat(),
        "dimension": "servers",
        "value": "",
        "servers": "6",
        "share_percent": "100.0",
    }
    versions = {row["value"]: row for row in rows if row["dimension"] == "version"}
    # the figures of the JSON, the small value folded into "other" as there
    assert (
        {value: int(row["servers"]) for value, row in versions.items()}
        == plain["breakdowns"]["version"]
        == {"10.11": 5, "other": 1}
    )
    assert versions["10.11"]["share_percent"] == "83.3"
    for row in rows:  # typed: counts and shares are numbers, periods dates
        int(row["servers"]), float(row["share_percent"])
        date.fromisoformat(row["period_from"]), date.fromisoformat(row["period_to"])


@pytest.mark.parametrize("path", ["/api/feedback/summary.json", "/api/feedback/summary.csv"])
@pytest.mark.parametrize("query", ["days=abc", "window=7y", "month=2026-13", "days=3&window=30d"])
def test_the_summary_files_refuse_a_bad_question_with_a_400(client, path, query):
    response = client.get(f"{path}?{query}")
    assert response.status_code == 400
    assert response.json()["error"]


def test_a_month_summary_csv_names_its_month_and_counts_its_days(client):
    month = (timezone.localdate().replace(day=1) - timedelta(days=1)).replace(day=1)
    ReportFactory(received_at=datetime.combine(month, time(12), tzinfo=UTC))
    response = client.get(f"/api/feedback/summary.csv?month={month:%Y-%m}")
    assert f'filename="mariadb-usage-summary-{month:%Y-%m}.csv"' in response["Content-Disposition"]
    first = next(csv.DictReader(io.StringIO(response.content.decode())))
    assert (first["period_from"], first["servers"]) == (month.isoformat(), "1")
