"""The plugin's posts are answered here, ahead of all but one of the site's middleware,
when they come through Django's handler (the test client, the live test server);
gunicorn and runserver hand them to ``feedback.wsgi`` before the handler.

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
            return receive_report(request)
        return self.get_response(request)
