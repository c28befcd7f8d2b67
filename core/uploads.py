"""Bounds on what a client may upload, checked before the bytes are read.

Two layers (nginx's ``client_max_body_size`` in front of both, see deploy/):

1. ``RequestBodyLimitMiddleware`` refuses a request whose declared body is larger than
   ``MAX_REQUEST_BODY_BYTES`` with 413, before Django parses or stores any of it.
2. Within that, Django keeps an uploaded file in memory only up to
   ``FILE_UPLOAD_MAX_MEMORY_SIZE``; a larger one streams to a temporary file. An
   app that wants the bytes calls ``read_upload(upload, max_bytes)``, which refuses
   by the size Django measured while streaming, so a large file never enters the
   worker's memory; ``MaxUploadSize`` is the same rule as a form field validator.
"""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.deconstruct import deconstructible

from core import numbers
from core.hostile import wants_plain_text


class UploadTooLarge(ValidationError):
    pass


def human_size(size: int) -> str:
    """ "8 MiB", "12.5 MiB" or, below 10 MiB when not whole, KiB rounded up ("1025 KiB")."""
    mib, kib = 1024 * 1024, 1024
    if size % mib == 0 and size:
        return f"{size // mib} MiB"
    if size >= 10 * mib:
        return f"{size / mib:.1f} MiB"
    return f"{-(-size // kib)} KiB"


def check_upload_size(upload: "File[Any]", max_bytes: int, *, what: str = "The file") -> None:
    """Raise ``UploadTooLarge`` if ``upload`` (a Django UploadedFile) exceeds ``max_bytes``.

    Reads nothing: ``upload.size`` was counted while Django streamed the file.
    """
    if upload.size is None or upload.size > max_bytes:
        size = "unknown" if upload.size is None else human_size(upload.size)
        raise UploadTooLarge(
            f"{what} is {size}; the limit is {human_size(max_bytes)}.", code="too_large"
        )


def read_upload(upload: "File[Any]", max_bytes: int, *, what: str = "The file") -> bytes:
    """The upload's bytes, after its size was checked; never more than ``max_bytes``."""
    check_upload_size(upload, max_bytes, what=what)
    upload.seek(0)
    data: bytes = upload.read(max_bytes + 1)
    if len(data) > max_bytes:  # a handler that under-reported its size
        raise UploadTooLarge(f"{what} is larger than {human_size(max_bytes)}.", code="too_large")
    return data


@deconstructible
class MaxUploadSize:
    """Form/model field validator: ``validators=[MaxUploadSize(1024 * 1024)]``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes

    def __call__(self, upload: "File[Any]") -> None:
        check_upload_size(upload, self.max_bytes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MaxUploadSize) and other.max_bytes == self.max_bytes


def declared_body_size(request: HttpRequest) -> int:
    """The Content-Length a request declares; 0 when it declares none in ASCII digits."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    return int(declared) if numbers.is_ascii_integer(declared) else 0


class RequestBodyLimitMiddleware:
    """413 for a body larger than MAX_REQUEST_BODY_BYTES, before a byte of it is read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        size = declared_body_size(request)
        if size > settings.MAX_REQUEST_BODY_BYTES:
            limit = settings.MAX_REQUEST_BODY_BYTES
            reason = f"The request body is {human_size(size)}; the limit is {human_size(limit)}."
            if wants_plain_text(request):
                return HttpResponse(f"{reason}\n", status=413, content_type="text/plain")
            return render(request, "413.html", {"reason": reason}, status=413)
        return self.get_response(request)


DRAIN_CHUNK_BYTES = 64 * 1024


def drain_body(request: HttpRequest) -> None:
    """Read what is left unread of ``request``'s body (see DrainRequestBodyMiddleware); a
    body declared larger than MAX_REQUEST_BODY_BYTES is left alone (it never comes
    through nginx)."""
    if 0 < declared_body_size(request) <= settings.MAX_REQUEST_BODY_BYTES:
        try:
            while request.read(DRAIN_CHUNK_BYTES):
                pass
        except (UnreadablePostError, OSError):
            pass  # the client went away: gunicorn closes the connection itself


class DrainRequestBodyMiddleware:
    """Reads what the view left unread of the request body before the answer goes out.

    nginx keeps its connections to gunicorn open for the next request (``keepalive`` in
    deploy/nginx/portal.conf). A view that answers early (429, a wrong content type, a
    logo over its limit, a CSRF refusal) leaves the body on that connection; gunicorn
    reads at most 64 KiB of such a leftover and otherwise closes the connection, which
    nginx may be reusing for someone else's request at that moment: that request then
    fails with 502 (nginx's "upstream prematurely closed connection"). Reading the rest
    here keeps the connection in step. nginx has already buffered the whole body (and
    limited its size), so this costs a memory copy (``drain_body``).

    First in MIDDLEWARE: it also covers answers given by the other middleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        drain_body(request)
        return response
