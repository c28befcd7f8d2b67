"""Random and mutated bodies never cause a 5xx, and nothing invalid is stored."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedback.models import RawReport
from feedback.parser import ReportError, parse_report
from tests.feedback.captures import captured_requests, data_part, split_http

pytestmark = pytest.mark.django_db
BOUNDARY = b"--------------------------ba4f3696b39f"
REAL_BODIES = [split_http(raw)[2] for raw in captured_requests().values()]


def mutate(body: bytes, data: st.DataObject) -> bytes:
    body = bytearray(body)
    for _ in range(data.draw(st.integers(1, 8))):
        action = data.draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        position = data.draw(st.integers(0, max(len(body) - 1, 0)))
        if action == "flip" and body:
            body[position] = data.draw(st.integers(0, 255))
        elif action == "insert":
            body[position:position] = data.draw(st.binary(min_size=1, max_size=16))
        elif action == "delete" and body:
            del body[position : position + data.draw(st.integers(1, 64))]
        elif action == "truncate":
            del body[position:]
    return bytes(body)


def is_valid_report(body: bytes) -> bool:
    try:
        parse_report(data_part(body))
    except (ReportError, ValueError):
        return False
    return True


fuzz_settings = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@fuzz_settings
@given(data=st.data())
def test_mutated_real_bodies_never_cause_a_server_error(client, data):
    body = mutate(data.draw(st.sampled_from(REAL_BODIES)), data)
    before = RawReport.objects.count()
    response = client.generic(
        "POST",
        "/rest/v1/post",
        body,
        content_type="multipart/form-data; boundary=" + BOUNDARY.decode(),
    )
    assert response.status_code < 500
    if response.status_code == 200:
        assert b"<h1>ok</h1>" in response.content
        assert RawReport.objects.count() == before + 1
    else:
        assert response.status_code in {400, 413}
        assert RawReport.objects.count() == before


@fuzz_settings
@given(
    body=st.binary(max_size=2048),
    content_type=st.sampled_from(
        ["multipart/form-data; boundary=xyz", "multipart/form-data", "application/octet-stream",
         "text/plain", "multipart/form-data; boundary=" + BOUNDARY.decode()]
    ),
)  # fmt: skip
def test_random_bodies_never_cause_a_server_error_and_store_nothing(client, body, content_type):
    response = client.generic("POST", "/rest/v1/post", body, content_type=content_type)
    assert response.status_code in {400, 413}
    assert RawReport.objects.count() == 0
