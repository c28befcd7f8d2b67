"""Issue 25 item 4 and issue 28 item 6: a report is parsed once, when it arrives, and the
country of its sender is kept without the address."""

import gzip

import pytest
from django.db import connection

from feedback import services
from feedback.models import RawReport, Report
from feedback.parser import ReportError, parse_report
from tests.feedback.captures import data_part, split_http

pytestmark = pytest.mark.django_db
FINNISH_ADDRESS = "193.166.3.2"  # FUNET, Finland (iptocc)


def test_processing_stores_what_the_endpoints_parse_produced(fixture_requests, monkeypatch):
    data = data_part(split_http(fixture_requests["full-10.11-debian12"])[2])
    services.accept_report(data, path="/rest/v1/post", handover=lambda ids: None)
    raw = RawReport.objects.get()
    assert raw.parsed["server_uid"] == "BRQuphxhO/ivzmSTEp4J9xb4UxI="

    def parse_again(body):
        raise AssertionError("the report was parsed a second time")

    monkeypatch.setattr(services, "parse_report", parse_again)
    assert services.process_pending().processed == 1
    report = Report.objects.get()
    expected = parse_report(data)
    assert (report.version, report.cpu_count, report.memory_bytes, report.collations) == (
        expected.version,
        expected.cpu_count,
        expected.memory_bytes,
        expected.collations,
    )
    raw.refresh_from_db()
    assert raw.parsed is None  # used; the bytes stay for a reprocess
    assert gzip.decompress(bytes(raw.body_gz)) == data


def test_a_reprocess_parses_the_bytes_again(fixture_requests, monkeypatch):
    data = data_part(split_http(fixture_requests["full-10.11-debian12"])[2])
    services.accept_report(data, path="/rest/v1/post", handover=lambda ids: None)
    services.process_pending()
    raw = RawReport.objects.get()

    def stricter_parser(body):  # the parser "fixed" after the report was accepted
        raise ReportError("VERSION is now refused")

    monkeypatch.setattr(services, "parse_report", stricter_parser)
    result = services.reprocess([raw.pk])
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
