"""The plugin's posts, answered at the WSGI entry, ahead of Django's handler.

``config.wsgi.application`` (what gunicorn and runserver call) is ``ReportEntry`` around
Django's handler: a request to one of the report paths goes straight to
``feedback.views.receive_report``, every other request to Django. Under load, with the
rest of a report's work as it is, Django's handler and its middleware chain cost a report
about a tenth of a worker's CPU for nothing a report needs (docs/PERFORMANCE.md, "The
fifth step"); ``feedback.middleware`` already answered reports ahead of the rest of the
middleware.

What the handler does that a report does need is done here as there: the request signals
(``request_started`` here, ``request_finished`` when the server closes the response), so
that database connections are checked and recycled as for any request; what the view
left unread of the body is read (``core.uploads.drain_body``); an unexpected error is
logged and answered 500 without its details.

The test client and the live test server call Django's handler, not this: there
``feedback.middleware`` gives the same paths to the same view. tests/feedback/test_wsgi_entry.py
posts through this entry.
"""

import logging

from django.core import signals
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse

from core.uploads import drain_body
from feedback.views import REPORT_PATHS, receive_report

logger = logging.getLogger(__name__)


class ReportEntry:
    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO", "")[1:] not in REPORT_PATHS:
            return self.application(environ, start_response)
        signals.request_started.send(sender=self.__class__, environ=environ)
        request = WSGIRequest(environ)
        try:
            response = receive_report(request)
        except Exception:
            logger.exception("feedback report: unexpected error")
            response = HttpResponse(
                "The report could not be taken; please retry later.\n",
                status=500,
                content_type="text/plain; charset=utf-8",
            )
        drain_body(request)
        # The server closes the response once it is sent; closing sends request_finished.
        response._handler_class = self.__class__
        start_response(f"{response.status_code} {response.reason_phrase}", [*response.items()])
        return response
