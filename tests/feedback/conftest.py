import pytest

from feedback.services import processing
from tests.feedback.captures import BOUNDARY, captured_requests, plugin_body, split_http


@pytest.fixture
def fixture_requests():
    return captured_requests()


@pytest.fixture
def post_raw(client, django_capture_on_commit_callbacks):
    """Post a captured request's body with its own Content-Type, as the plugin sent it.

    Commit hooks run as they would after a real commit; then the sweep runs, as the wake
    a stored report sends (at most one per interval) would a few seconds later.
    """

    def post(raw: bytes, path=None, **extra):
        request_line, headers, body = split_http(raw)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(
                "POST",
                path or request_line.split()[1],
                body,
                content_type=headers["Content-Type"],
                **extra,
            )
        processing.process_all_pending()
        return response

    return post


@pytest.fixture
def post_body(client, django_capture_on_commit_callbacks):
    """Post a report body (text) wrapped exactly as the plugin wraps it; the sweep runs."""

    def post(report: str, path="/rest/v1/post"):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(
                "POST",
                path,
                plugin_body(report),
                content_type=f"multipart/form-data; boundary={BOUNDARY}",
            )
        processing.process_all_pending()
        return response

    return post
