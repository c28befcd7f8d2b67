"""The plugin's posts are answered here, ahead of most of the site's middleware.

It sits after the site-wide guards every request passes (the body drain, security, the
NUL-byte and body-size checks); a report needs none of what the rest of the stack does
for pages (page cache, sessions, CSRF, authentication, messages, browser headers):
measured in one process, running a post through the whole stack cost several times
what parsing the report does. Every request to the report paths, whatever its method, goes
to ``feedback.views.receive_report`` from here; the URL routes stay for reverse() and
the API schema, and a request only reaches them if this middleware is not installed.
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
