"""PostgreSQL unreachable: every page answers a designed 503 with ``Retry-After``.

Two places catch the database's connection errors: ``DatabaseOutageMiddleware`` for
errors raised by views and templates, and ``server_error`` (the project's handler500)
for the ones raised anywhere else in the stack (sessions, authentication). The page is
rendered without the request, so rendering it never touches the database.

The log says "database unavailable" once when the outage starts and "available again"
once when a request next gets through (``core.outagelog``); the 503s in between are not
logged one by one (Django's request logger is told they have been).
"""

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.http.response import HttpResponseBase
from django.template import loader
from django.views.defaults import server_error as django_server_error

from core.context_processors import site_context
from core.outagelog import OutageLog

logger = logging.getLogger(__name__)

OUTAGE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 120
DATABASE_OUTAGE = OutageLog(logger, "database", "answering 503 with Retry-After")


def database_unavailable_response(path: str = "") -> HttpResponse:
    try:
        body: str = loader.render_to_string("503.html", site_context(path))
        content_type = "text/html; charset=utf-8"
    except Exception:  # the designed page itself failed: still answer a 503, never a 500
        body = "The site is temporarily unavailable. Please try again in a few minutes.\n"
        content_type = "text/plain; charset=utf-8"
    response = HttpResponse(body, status=503, content_type=content_type)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # type: ignore[attr-defined]  # the outage is logged once, not per request
    return response


class DatabaseOutageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not DATABASE_OUTAGE.is_down:
            return self.get_response(request)
        # During an outage, only a query that succeeds says the database is back (pages
        # that need no query, like robots.txt, say nothing).
        answered: list[bool] = []

        def note_answer(
            execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
        ) -> Any:
            result = execute(sql, params, many, context)
            answered.append(True)
            return result

        with connection.execute_wrapper(note_answer):
            response = self.get_response(request)
        if answered:
            DATABASE_OUTAGE.up()
        return response

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if isinstance(exception, OUTAGE_ERRORS):
            DATABASE_OUTAGE.down(exception)
            return database_unavailable_response(request.path)
        return None


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """handler500: a database outage anywhere in the stack is a 503, not a 500."""
    error = sys.exc_info()[1]
    if isinstance(error, OUTAGE_ERRORS):
        DATABASE_OUTAGE.down(error)
        return database_unavailable_response(request.path)
    try:
        return django_server_error(request, template_name)
    except Exception:
        return HttpResponseServerError("Server error\n", content_type="text/plain")
