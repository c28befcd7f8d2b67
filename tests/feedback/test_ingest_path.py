"""Issue 35 item 1: the one path every report takes, made cheaper without changing what
it accepts: the report read out of the body without Django's generic multipart parser
(the same bytes, so sha256 and the resend flag do not change), and processing woken at
most once per interval instead of one broker message per report."""

import io

import pytest
from django.core.files.uploadhandler import MemoryFileUploadHandler
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.test import RequestFactory
from django.utils.http import parse_header_parameters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedback import tasks
from feedback.models import RawReport
from feedback.multipart import MultipartError, boundary_of, report_part
from tests.feedback.captures import BOUNDARY, captured_requests, plugin_body, split_http
from tests.feedback.test_fuzz import REAL_BODIES, mutate

UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="


def django_data_part(body: bytes, content_type: str) -> bytes | None:
    """What the endpoint read before: the 'data' file through Django's parser."""
    meta = RequestFactory().generic("POST", "/", body, content_type=content_type).META
    try:
        _, files = MultiPartParser(
            meta, io.BytesIO(body), [MemoryFileUploadHandler()], encoding="utf-8"
        ).parse()
    except MultiPartParserError:
        return None
    upload = files.get("data")
    return upload.read() if upload is not None else None


def ours(body: bytes, content_type: str) -> bytes | None:
    _, params = parse_header_parameters(content_type)
    try:
        return report_part(body, boundary_of(params))
    except MultipartError:
        return None


@pytest.mark.parametrize("name", sorted(captured_requests()))
def test_the_report_read_from_each_capture_is_the_one_djangos_parser_read(name):
    _, headers, body = split_http(captured_requests()[name])
    expected = django_data_part(body, headers["Content-Type"])
    assert expected and ours(body, headers["Content-Type"]) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_bodies_give_the_same_report_or_none_as_djangos_parser(data):
    body = mutate(data.draw(st.sampled_from(REAL_BODIES)), data)
    content_type = f"multipart/form-data; boundary={BOUNDARY}"
    assert ours(body, content_type) == django_data_part(body, content_type)


@pytest.mark.django_db
def test_a_burst_of_reports_wakes_processing_once(
    client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.FEEDBACK_PROCESS_DELAY_SECONDS = 60
    monkeypatch.setattr(tasks.wake_processing, "next_at", 0.0)  # a fresh web process
    for number in range(4):
        report = f"FEEDBACK_SERVER_UID\t{UID}\x00\nFEEDBACK_WHEN\tstartup\nX\t{number}\n\n"
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(
                "POST",
                "/rest/v1/post",
                plugin_body(report),
                content_type=f"multipart/form-data; boundary={BOUNDARY}",
            )
        assert response.status_code == 200
    # Celery runs tasks eagerly in tests: the one wake ran the sweep at the first report;
    # the other three wait for the next interval's wake (or the beat sweep).
    assert list(RawReport.objects.order_by("id").values_list("status", flat=True)) == [
        "processed",
        "pending",
        "pending",
        "pending",
    ]
