"""Refusing input that no page can use, before any view or query sees it.

PostgreSQL cannot store or compare a text value containing a NUL byte (the
driver raises ``DataError``), so a NUL anywhere in the address would turn
into a 500 at whichever query first used it. Such a request is refused with
400 and a one-line reason at the door instead.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render

from core.edge import api_path_prefixes
from core.numbers import NumberRefused

NUL = "\x00"


def wants_plain_text(request: HttpRequest) -> bool:
    """APIs and non-browser clients get errors as one line of text, browsers a page."""
    return request.path.startswith(api_path_prefixes()) or not request.accepts("text/html")


def bad_request(request: HttpRequest, reason: str) -> HttpResponse:
    """400 with ``reason``: plain text for APIs and non-browser clients, a page otherwise."""
    if wants_plain_text(request):
        return HttpResponse(f"Bad request: {reason}\n", status=400, content_type="text/plain")
    return render(request, "400.html", {"reason": reason}, status=400)


def nul_byte_reason(request: HttpRequest) -> str | None:
    """Why the request cannot be served, when its path, query or cookies carry a NUL byte."""
    if NUL in request.path_info:
        return "the address contains a NUL byte."
    for name, values in request.GET.lists():
        if NUL in name or any(NUL in value for value in values):
            return "a query parameter contains a NUL byte."
    for name, value in request.COOKIES.items():
        if NUL in name or NUL in value:
            return "a cookie contains a NUL byte."
    return None


class RefuseNulBytesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        reason = nul_byte_reason(request)
        if reason:
            return bad_request(request, reason)
        return self.get_response(request)


class RefuseBadNumbersMiddleware:
    """A number, date or version a view read from the request and ``core.numbers`` refused
    (a page number in full-width digits, ``?days=²``) is a 400 with the reason, never a 500 and never a page of
    its own that a cache could keep (issue 58)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if isinstance(exception, NumberRefused):
            return bad_request(request, str(exception))
        return None
