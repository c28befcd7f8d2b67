"""A report is checked when it arrives and stored once, as its bytes (issue 35; issue 25
item 4 had kept the parse beside them), and the country of its sender is kept without
the address (issue 28 item 6)."""

import pytest
from django.db import connection

from feedback.models import RawReport, Report
from feedback.parser import ReportError, parse_report
from feedback.services import intake, processing
from tests.feedback.captures import data_part, split_http

pytestmark = pytest.mark.django_db
FINNISH_ADDRESS = "193.166.3.2"  # FUNET, Finland (iptocc)


def test_a_report_is_stored_once_as_its_bytes_and_processing_parses_them(fixture_requests):
    """Issue 35: the bytes, not the bytes and the parse beside them."""
    data = data_part(split_http(fixture_requests["full-10.11-debian12"])[2])
    intake.accept_report(data, path="/rest/v1/post", handover=lambda ids: None)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
            ["feedback_rawreport"],
        )
        columns = {name for (name,) in cursor.fetchall()}
    assert "parsed" not in columns
    raw = RawReport.objects.get()
    assert bytes(raw.body) == data

    assert processing.process_pending().processed == 1
    report = Report.objects.get()
    expected = parse_report(data)
    assert (report.version, report.cpu_count, report.memory_bytes, report.collations) == (
        expected.version,
        expected.cpu_count,
        expected.memory_bytes,
        expected.collations,
    )


def test_a_reprocess_parses_the_bytes_again(fixture_requests, monkeypatch):
    data = data_part(split_http(fixture_requests["full-10.11-debian12"])[2])
    intake.accept_report(data, path="/rest/v1/post", handover=lambda ids: None)
    processing.process_pending()
    raw = RawReport.objects.get()

    def stricter_parser(body):  # the parser "fixed" after the report was accepted
        raise ReportError("VERSION is now refused")

    monkeypatch.setattr(processing, "parse_report", stricter_parser)
    result = processing.reprocess([raw.pk])
    raw.refresh_from_db()
    assert (result.processed, result.rejected) == (0, 1)
    assert raw.rejection_reason == "VERSION is now refused"


def test_the_country_is_kept_and_the_address_is_not(settings, fixture_requests, post_raw):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    response = post_raw(
        fixture_requests["full-10.11-debian12"],
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR=FINNISH_ADDRESS,
    )
    assert response.status_code == 200
    assert RawReport.objects.get().country == "FI"
    assert Report.objects.get().country == "FI"
    with connection.cursor() as cursor:  # not in any column of any feedback table
        for table in ("feedback_rawreport", "feedback_report", "feedback_server"):
            cursor.execute(
                f"SELECT count(*) FROM {table} WHERE {table}::text LIKE %s",  # noqa: S608
                ["%193.166%"],
            )
            assert cursor.fetchone()[0] == 0, table


def test_a_private_address_has_no_country(fixture_requests, post_raw):
    assert post_raw(fixture_requests["startup"], REMOTE_ADDR="10.1.2.3").status_code == 200
    assert Report.objects.get().country == ""
