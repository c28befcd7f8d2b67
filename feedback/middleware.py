"""The plugin's posts are answered here, ahead of all but one of the site's middleware.

It sits right after the body drain, which keeps nginx's keep-alive connections in step
whatever the answer. A report needs none of the rest: its paths are matched exactly (no
NUL byte can be in them, and the view reads neither the query nor cookies), the view
checks the body's declared size before reading a byte (``FEEDBACK_MAX_BODY_BYTES``, below
the site's ``MAX_REQUEST_BODY_BYTES``), the paths are exempt from the HTTPS redirect
anyway (the plugin may post over plain HTTP), and the security middleware's browser
headers, the page cache, sessions, CSRF, authentication and messages are for browsers.
Measured in one process, running a post through the whole stack cost several times what
parsing the report does, and the four guards it used to follow about 15 µs a report.
Every request to the report paths, whatever its method, goes to
``feedback.views.receive_report`` from here; the URL routes stay for reverse() and the
API schema, and a request only reaches them if this middleware is not installed.
"""

from feedback.views import REPORT_PATHS, receive_report


class ReportEndpointMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info[1:] in REPORT_PATHS:
            response = receive_report(request)
            # CommonMiddleware, which the answer skips, would set it: without it gunicorn
            # answers HTTP/1.1 in chunks, which the plugin's own HTTP client need not read.
            response["Content-Length"] = str(len(response.content))
            return response
        return self.get_response(request)
