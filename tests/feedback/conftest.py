from pathlib import Path

import pytest

# The checkout has ../shared beside it (so does CI's clone): real captured plugin requests.
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "feedback"


def split_http(raw: bytes):
    """(request line, headers dict, body) of a captured HTTP request."""
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], headers, body


def data_part(body: bytes) -> bytes:
    """The report itself: what the plugin put in the 'data' part."""
    start = body.index(b"application/octet-stream\r\n\r\n") + len(
        b"application/octet-stream\r\n\r\n"
    )
    end = body.rindex(b"----------------------------ba4f3696b39f--")
    return body[start:end]


@pytest.fixture
def fixture_requests():
    return {path.stem: path.read_bytes() for path in sorted(FIXTURES.glob("*.http"))}


@pytest.fixture
def post_raw(client, django_capture_on_commit_callbacks):
    """Post a captured request's body with its own Content-Type, as the plugin sent it.

    Commit hooks run as they would after a real commit (processing is enqueued on commit).
    """

    def post(raw: bytes, path=None, **extra):
        request_line, headers, body = split_http(raw)
        with django_capture_on_commit_callbacks(execute=True):
            return client.generic(
                "POST",
                path or request_line.split()[1],
                body,
                content_type=headers["Content-Type"],
                **extra,
            )

    return post


@pytest.fixture
def post_body(client, django_capture_on_commit_callbacks):
    """Post a report body (text) wrapped exactly as the plugin wraps it."""

    def post(report: str, path="/rest/v1/post"):
        boundary = "--------------------------ba4f3696b39f"
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n{report}--{boundary}--\r\n"
        ).encode()
        with django_capture_on_commit_callbacks(execute=True):
            return client.generic(
                "POST", path, body, content_type=f"multipart/form-data; boundary={boundary}"
            )

    return post
