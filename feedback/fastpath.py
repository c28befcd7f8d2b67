"""A lean WSGI path for the plugin's own uploads, in front of Django.

The plugin always sends one multipart part named "data" in a fixed layout. For exactly
that shape this layer slices the report out of the body with bytes operations and calls
the same rate limit and storage code as the Django view, skipping the middleware stack,
URL resolution and the general multipart parser. Anything else (other methods, other
paths, other layouts, oversized or malformed bodies) goes to Django unchanged, so every
answer and error stays the view's.
"""

import io
import re

from django.core.handlers.wsgi import WSGIRequest
from django.db import close_old_connections

from feedback import views
from feedback.limits import BodySizeError, checked_body_size
from feedback.ratelimit import too_many_reports

PATHS = {"/rest/v1/post", "/feedback_plugin/post"}
BOUNDARY = re.compile(r'^multipart/form-data;\s*boundary="?([^";]+)"?\s*$', re.I)
DATA_PART = re.compile(
    rb'^Content-Disposition: form-data; name="data"(; filename="[^"\r\n]*")?\r\n', re.I
)


def plugin_report(content_type: str, body: bytes) -> bytes | None:
    """The report inside a body in the plugin's layout, or None for any other shape."""
    match = BOUNDARY.match(content_type or "")
    if not match:
        return None
    delimiter = b"--" + match.group(1).encode("latin-1")
    if not body.startswith(delimiter + b"\r\n"):
        return None
    headers_end = body.find(b"\r\n\r\n", len(delimiter) + 2)
    closing = body.rfind(delimiter + b"--")
    if headers_end < 0 or closing < headers_end:
        return None
    if not DATA_PART.match(body[len(delimiter) + 2 : headers_end + 2]):
        return None
    data = body[headers_end + 4 : closing]
    if delimiter in data:  # more than one part: let Django's parser decide
        return None
    # Like Django's parser: the line break before the closing delimiter is not data.
    if data.endswith(b"\r\n"):
        return data[:-2]
    return data[:-1] if data.endswith(b"\n") else data


class FeedbackFastPath:
    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") not in PATHS:
            return self.application(environ, start_response)
        try:
            length = checked_body_size(environ.get("CONTENT_LENGTH"))
        except BodySizeError:  # Django's view gives the answer
            return self.application(environ, start_response)
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)
        data = plugin_report(environ.get("CONTENT_TYPE", ""), body)
        if data is None:
            return self.application(environ, start_response)

        request = WSGIRequest(environ)
        try:
            response = views.TOO_MANY() if too_many_reports(request) else views.store(request, data)
        finally:
            close_old_connections()
        status = f"{response.status_code} {response.reason_phrase}"
        start_response(status, [*response.items(), ("Content-Length", str(len(response.content)))])
        return [response.content]
