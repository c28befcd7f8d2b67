"""Reports posted through config.wsgi.application, the entry gunicorn and runserver call
(feedback/wsgi.py answers the report paths there, ahead of Django's handler)."""

import hashlib
import io
import logging

import pytest
from django.core import signals

from config.wsgi import application
from feedback.models import RawReport
from tests.feedback.captures import BOUNDARY, captured_requests, data_part, split_http

# Transactional: the entry sends request_finished, whose handler closes a connection that
# is inside a transaction (as the test's own would be).
pytestmark = pytest.mark.django_db(transaction=True)

MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


class Sent:
    """What a WSGI server would send back, and whether it closed the response."""

    def __init__(self, environ):
        self.input = environ["wsgi.input"]
        result = application(environ, self.start_response)
        try:
            self.body = b"".join(result)
        finally:
            result.close()  # as a server does once the answer is sent

    def start_response(self, status, headers, exc_info=None):
        self.status = status
        self.headers = dict(headers)


def call(method="POST", path="/rest/v1/post", body=b"", content_type=MULTIPART, length=None):
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.0",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body) if length is None else length),
        "HTTP_USER_AGENT": "MariaDB User Feedback Plugin",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    return Sent(environ)


def full_request_body() -> bytes:
    return split_http(captured_requests()["full-10.11-debian12"])[2]


@pytest.fixture
def request_signals():
    sent = []

    def started(sender, **kwargs):
        sent.append("started")

    def finished(sender, **kwargs):
        sent.append("finished")

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    yield sent
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


@pytest.mark.parametrize("path", ["/rest/v1/post", "/feedback_plugin/post"])
def test_a_real_report_through_the_entry_is_stored_then_answered_ok(path, request_signals):
    body = full_request_body()
    sent = call(path=path, body=body)
    assert sent.status == "200 OK"
    assert sent.body == b"<html><body><h1>ok</h1></body></html>\n"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    assert sent.headers["Content-Type"] == "text/html; charset=utf-8"
    stored = RawReport.objects.get()
    assert stored.path == path
    report = data_part(body).removesuffix(b"\n")  # the last line break is the framing's
    assert bytes(stored.body) == report
    assert stored.sha256 == hashlib.sha256(report).hexdigest()
    # As for any request Django handles: connections are checked before and after.
    assert request_signals == ["started", "finished"]


@pytest.mark.parametrize(
    ("request_", "status", "says"),
    [
        ({"method": "GET"}, "405 Method Not Allowed", b"Only POST"),
        ({"method": "PUT", "body": b"x" * 100}, "405 Method Not Allowed", b"Only POST"),
        ({"content_type": "text/plain", "body": b"x" * 100}, "400 Bad Request", b"multipart"),
        ({"body": b"--" + BOUNDARY.encode() + b"--\r\n"}, "400 Bad Request", b"no 'data' part"),
        ({"body": b"x" * (1024 * 1024 + 1)}, "413 Request Entity Too Large", b"limit"),
    ],
)
def test_refusals_through_the_entry_store_nothing_and_leave_no_body_unread(request_, status, says):
    sent = call(**request_)
    assert sent.status == status
    assert says in sent.body
    assert sent.headers["Content-Length"] == str(len(sent.body))
    assert sent.input.read() == b""  # the rest was read: the connection stays in step
    assert not RawReport.objects.exists()


def test_a_content_length_that_is_no_number_is_refused_through_the_entry():
    sent = call(length="many", body=b"x")
    assert sent.status == "400 Bad Request"
    assert sent.body == b"Content-Length is not a number.\n"
    assert not RawReport.objects.exists()


def test_a_body_that_is_no_report_is_refused_through_the_entry():
    body = full_request_body().replace(b"FEEDBACK_SERVER_UID", b"SOMETHING_ELSE", 1)
    sent = call(body=body)
    assert sent.status == "400 Bad Request"
    assert sent.body.startswith(b"Not a feedback report: the report has no FEEDBACK_SERVER_UID")
    assert not RawReport.objects.exists()


def test_an_unexpected_error_is_logged_and_answered_500_without_its_details(
    monkeypatch, caplog, request_signals
):
    def broken(*args, **kwargs):
        raise RuntimeError("the secret details")

    monkeypatch.setattr("feedback.views.intake.accept_report", broken)
    with caplog.at_level(logging.ERROR, logger="feedback.wsgi"):
        sent = call(body=full_request_body())
    assert sent.status == "500 Internal Server Error"
    assert b"retry later" in sent.body
    assert b"secret" not in sent.body
    assert "the secret details" in caplog.text
    assert request_signals == ["started", "finished"]


@pytest.mark.parametrize("path", ["/healthz", "/rest/v1/post/", "/rest/v1/postx"])
def test_other_paths_go_to_django(path, request_signals):
    sent = call(method="GET", path=path)
    assert sent.status != "405 Method Not Allowed"  # what the report view answers a GET
    if path == "/healthz":
        assert sent.status == "200 OK"
    assert request_signals == ["started", "finished"]
