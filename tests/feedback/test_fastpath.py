import io

import pytest

from config.wsgi import application
from feedback.fastpath import plugin_report
from feedback.models import RawReport
from tests.feedback.captures import data_part, split_http

pytestmark = pytest.mark.django_db(transaction=True)


def call(raw_request: bytes, remote="192.0.2.1"):
    request_line, headers, body = split_http(raw_request)
    environ = {
        "REQUEST_METHOD": request_line.split()[0], "PATH_INFO": request_line.split()[1], "SCRIPT_NAME": "",
        "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.0",
        "REMOTE_ADDR": remote, "CONTENT_TYPE": headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http", "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False, "wsgi.version": (1, 0),
    }  # fmt: skip
    answer = {}

    def start_response(status, headers):
        answer["status"], answer["headers"] = status, dict(headers)

    answer["body"] = b"".join(application(environ, start_response))
    return answer


def test_the_fast_path_cuts_out_exactly_what_djangos_parser_gives(fixture_requests, client):
    for raw in fixture_requests.values():
        _, headers, body = split_http(raw)
        expected = data_part(body)
        expected = expected[:-1] if expected.endswith(b"\n") else expected
        assert plugin_report(headers["Content-Type"], body) == expected


@pytest.mark.parametrize("name", ["startup", "full-10.11-debian12", "shutdown"])
def test_captured_requests_through_the_production_wsgi_application(name, fixture_requests):
    answer = call(fixture_requests[name])
    assert answer["status"] == "200 OK"
    assert b"<h1>ok</h1>" in answer["body"]
    assert RawReport.objects.count() == 1


def test_the_same_report_hashes_the_same_on_both_paths(
    fixture_requests, client, django_capture_on_commit_callbacks
):
    call(fixture_requests["full-10.11-debian12"])
    _, headers, body = split_http(fixture_requests["full-10.11-debian12"])
    client.generic("POST", "/rest/v1/post", body, content_type=headers["Content-Type"])
    assert list(RawReport.objects.order_by("id").values_list("is_resend", flat=True)) == [
        False,
        True,
    ]


def test_other_shapes_fall_through_to_django_with_the_same_answers(fixture_requests):
    boundary = "xyz"
    two_parts = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n\r\nA\tB\n\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--{boundary}--\r\n'
    ).encode()
    request = f"POST /rest/v1/post HTTP/1.0\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n\r\n".encode()
    answer = call(request + two_parts)
    assert answer["status"].startswith("400")  # Django's parser found no UID: a clear 400
    not_multipart = b"POST /rest/v1/post HTTP/1.0\r\nContent-Type: text/plain\r\n\r\nhello"
    assert call(not_multipart)["status"].startswith("400")
    assert RawReport.objects.count() == 0


def test_rate_limit_applies_on_the_fast_path(fixture_requests, settings):
    settings.FEEDBACK_RATE_LIMIT = "2/m"
    statuses = [
        call(fixture_requests["startup"], remote="198.51.100.7")["status"][:3] for _ in range(3)
    ]
    assert statuses == ["200", "200", "429"]
