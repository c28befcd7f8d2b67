import socket

import pytest
import redis
from django.db import connection as db_connection

from feedback.checks import check_feedback_rate_limit, parse_rate
from feedback.models import RawReport, Report, Server
from feedback.services import processing
from tests.feedback.captures import data_part, split_http

pytestmark = pytest.mark.django_db
UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="
BOUNDARY = "--------------------------ba4f3696b39f"


def multipart(data: bytes, name=b"data") -> bytes:
    return (
        b"--" + BOUNDARY.encode() + b"\r\n"
        b'Content-Disposition: form-data; name="' + name + b'"; filename="-"\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n"
        + data
        + b"--"
        + BOUNDARY.encode()
        + b"--\r\n"
    )


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    def send(client, body: bytes, path="/rest/v1/post", content_type=None, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(
                "POST",
                path,
                body,
                content_type=content_type or f"multipart/form-data; boundary={BOUNDARY}",
                **extra,
            )
        processing.process_all_pending()  # the sweep the stored report woke
        return response

    return send


@pytest.mark.parametrize("name", ["startup", "full-10.11-debian12", "shutdown"])
def test_every_captured_request_is_accepted_stored_and_processed(name, fixture_requests, post_raw):
    raw_request = fixture_requests[name]
    response = post_raw(raw_request)
    assert response.status_code == 200
    assert b"<h1>ok</h1>" in response.content

    stored = RawReport.objects.get()
    report_bytes = data_part(split_http(raw_request)[2])
    assert bytes(stored.body).rstrip(b"\n") == report_bytes.rstrip(b"\n")
    assert stored.path == "/rest/v1/post"
    assert stored.status == RawReport.Status.PROCESSED
    report = Report.objects.get()
    assert report.server.uid == UID
    assert report.kind == {"startup": "startup", "shutdown": "shutdown"}.get(name, "full")


def test_the_legacy_path_is_accepted_and_recorded(fixture_requests, post_raw):
    response = post_raw(fixture_requests["startup"], path="/feedback_plugin/post")
    assert response.status_code == 200
    assert RawReport.objects.get().path == "/feedback_plugin/post"


def test_a_server_row_tracks_first_and_last_seen_and_latest_version(fixture_requests, post_raw):
    for name in ["startup", "full-10.11-debian12", "shutdown"]:
        post_raw(fixture_requests[name])
    server = Server.objects.get()
    assert server.reports_count == 3
    assert server.latest_version == "10.11.19-MariaDB-0+deb12u1"
    assert server.first_seen <= server.last_seen


def test_a_resent_report_is_recognised(fixture_requests, post_raw):
    post_raw(fixture_requests["full-10.11-debian12"])
    post_raw(fixture_requests["full-10.11-debian12"])
    processing.process_all_pending()  # processing flags resends
    assert list(RawReport.objects.order_by("id").values_list("is_resend", flat=True)) == [
        False,
        True,
    ]


def test_mysql_test_traffic_is_stored_and_flagged(client, post):
    data = f"FEEDBACK_SERVER_UID\t{UID}\x00\nFEEDBACK_WHEN\tstartup\n"
    data += "FEEDBACK_USER_INFO\tmysql-test\n\n"
    assert post(client, multipart(data.encode())).status_code == 200
    assert RawReport.objects.get().is_test
    assert Report.objects.get().is_test


def test_no_ip_address_is_stored(fixture_requests, post_raw):
    post_raw(fixture_requests["full-10.11-debian12"], REMOTE_ADDR="203.0.113.77")
    with db_connection.cursor() as cursor:
        for table in ["feedback_rawreport", "feedback_report", "feedback_server"]:
            cursor.execute(f"SELECT * FROM {table}")  # noqa: S608 - fixed table names
            assert "203.0.113.77" not in repr(cursor.fetchall())


@pytest.mark.parametrize(
    ("body", "content_type", "status", "reason"),
    [
        (b"FEEDBACK_SERVER_UID\tx\n", "text/plain", 400, "multipart/form-data"),
        (
            multipart(f"FEEDBACK_SERVER_UID\t{UID}\n".encode(), name=b"other"),
            None,
            400,
            "'data' part",
        ),
        (multipart(b"this is not a report\n"), None, 400, "NAME<TAB>VALUE"),
        (multipart(b"VERSION\t10.11.6\n"), None, 400, "FEEDBACK_SERVER_UID"),
        (multipart(b"FEEDBACK_SERVER_UID\tnot-a-uid\n"), None, 400, "28 characters"),
        (b"--broken", None, 400, ""),
    ],
)
def test_bad_input_gets_a_clear_400_and_changes_nothing(
    client, post, body, content_type, status, reason
):
    response = post(client, body, content_type=content_type)
    assert response.status_code == status
    text = response.content.decode()
    assert reason in text
    assert text.count("\n") == 1  # one line
    assert RawReport.objects.count() == 0


def test_oversized_body_gets_413_without_being_read(client, post, settings):
    settings.FEEDBACK_MAX_BODY_BYTES = 1000
    response = post(client, multipart(b"A\t" + b"x" * 2000 + b"\n"))
    assert response.status_code == 413
    assert RawReport.objects.count() == 0


def test_other_methods_get_405(client):
    for method in ["get", "put", "delete"]:
        response = getattr(client, method)("/rest/v1/post")
        assert response.status_code == 405
        assert response["Allow"] == "POST"


def test_too_many_posts_from_one_address_get_429(client, settings, fixture_requests, post_raw):
    settings.FEEDBACK_RATE_LIMIT = "3/m"
    statuses = [
        post_raw(fixture_requests["startup"], REMOTE_ADDR="198.51.100.9").status_code
        for _ in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]
    assert RawReport.objects.count() == 3
    # another address behind its own NAT is not affected
    assert post_raw(fixture_requests["startup"], REMOTE_ADDR="198.51.100.10").status_code == 200


def test_the_rate_limit_keeps_no_address_in_redis(settings, fixture_requests, post_raw):

    assert settings.REDIS_URL, "the test command runs against a real Redis"
    client = redis.Redis.from_url(settings.REDIS_URL)
    before = set(client.keys("*rl:*"))
    assert post_raw(fixture_requests["startup"], REMOTE_ADDR="198.51.100.23").status_code == 200
    keys = [key.decode() for key in set(client.keys("*rl:*")) - before]
    assert len(keys) == 1
    assert "198.51.100.23" not in keys[0]
    assert client.ttl(keys[0]) > 0  # the counter goes away with its window


def test_with_redis_down_reports_are_still_accepted(settings, fixture_requests, post_raw):
    settings.FEEDBACK_RATE_LIMIT = "1/m"
    settings.CACHES = {
        **settings.CACHES,
        # The production cache (django-redis behind the breaker), where nothing listens.
        "unreachable": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"},
    }
    settings.RATELIMIT_USE_CACHE = "unreachable"
    statuses = [
        post_raw(fixture_requests["startup"], REMOTE_ADDR="198.51.100.24").status_code
        for _ in range(2)
    ]
    assert statuses == [200, 200]  # fails open: a report is worth more than the limit
    assert RawReport.objects.count() == 2


def test_database_refusing_the_report_gets_503_and_nothing_is_acknowledged(
    client, fixture_requests
):
    with db_connection.cursor() as cursor:  # the table is gone (undone with the test)
        cursor.execute("ALTER TABLE feedback_rawreport RENAME TO feedback_rawreport_away")
    _, headers, body = split_http(fixture_requests["startup"])
    response = client.generic("POST", "/rest/v1/post", body, content_type=headers["Content-Type"])
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert b"<h1>ok</h1>" not in response.content


@pytest.mark.django_db(transaction=True)
def test_byte_for_byte_replay_over_http_1_0(live_server, fixture_requests):
    host, port = live_server.thread.host, live_server.thread.port
    for name in ["startup", "full-10.11-debian12", "shutdown"]:
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(fixture_requests[name])
            reply = b""
            while chunk := sock.recv(4096):
                reply += chunk
        assert b"<h1>ok</h1>" in reply[:1023], reply[:300]
    processing.process_all_pending()  # the sweep the first report woke
    assert RawReport.objects.filter(status="processed").count() == 3
    assert Report.objects.filter(kind="full", version_major=10, version_minor=11).count() == 1


@pytest.mark.parametrize(
    ("rate", "parsed"), [("300/m", (300, 60)), ("10/5m", (10, 300)), ("2/h", (2, 3600))]
)
def test_the_report_rate_limit_reads_the_rates_django_ratelimit_reads(rate, parsed):
    assert parse_rate(rate) == parsed


def test_a_malformed_report_rate_limit_stops_the_site_at_its_checks(settings):
    settings.FEEDBACK_RATE_LIMIT = "300 a minute"
    assert [error.id for error in check_feedback_rate_limit(None)] == ["feedback.E001"]


@pytest.mark.parametrize("path", ["/rest/v1/post", "/feedback_plugin/post"])
def test_a_report_skips_the_browser_middleware(client, post, fixture_requests, path):
    """Reports are answered ahead of sessions, CSRF, the CSP and the edge marking
    (feedback/middleware.py): a post with a session cookie and no CSRF token is stored,
    and its answer carries none of a browser page's headers."""
    body = data_part(split_http(fixture_requests["startup"])[2])
    client.cookies["sessionid"] = "not-a-session"
    response = post(client, multipart(body), path=path)
    assert response.status_code == 200 and RawReport.objects.count() == 1
    assert response["Content-Length"] == str(len(response.content))
    for browser_header in ["Content-Security-Policy", "X-Frame-Options", "Vary", "Set-Cookie"]:
        assert not response.has_header(browser_header), browser_header
    page = client.get("/feedback/")
    assert page.has_header("Content-Security-Policy")  # the rest of the site still has them
