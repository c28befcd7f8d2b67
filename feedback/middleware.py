"""The plugin's posts, answered ahead of the browser middleware.

A report needs none of what follows this middleware in ``MIDDLEWARE``: the view reads
neither cookies nor the query, checks the declared size before reading a byte, and the
paths are exempt from the HTTPS redirect anyway (the plugin may post over plain HTTP).
Sessions, CSRF, authentication, messages, the CSP and the edge-cache marking are for
browsers, and running a post through them halved what one host stores a second
(docs/PERFORMANCE.md, "Feedback ingestion"). The URL routes stay for ``reverse()`` and
the API schema."""

from django.urls import reverse

from feedback.views import receive_report


class ReportEndpointMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.paths = frozenset({reverse("feedback:post"), reverse("feedback:post-legacy")})

    def __call__(self, request):
        if request.path_info not in self.paths:
            return self.get_response(request)
        response = receive_report(request)
        # What CommonMiddleware would add: the plugin and gunicorn's keep-alive connections
        # need the length, not a chunked answer.
        response.headers["Content-Length"] = str(len(response.content))
        return response
