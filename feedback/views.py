"""The endpoint MariaDB servers with feedback=ON post their reports to."""

import logging

from django.conf import settings
from django.http import HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema

from feedback import services
from feedback.ingest import StorageUnavailable
from feedback.parser import ReportError
from feedback.ratelimit import too_many_reports

logger = logging.getLogger(__name__)

OK_BODY = "<html><body><h1>ok</h1></body></html>\n"


def _text(message: str, status: int, **headers) -> HttpResponse:
    response = HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")
    for name, value in headers.items():
        response[name] = value
    return response


@csrf_exempt
def receive_report(request):
    if request.method != "POST":
        return _text("Only POST is accepted here.", 405, Allow="POST")

    limit = getattr(settings, "FEEDBACK_MAX_BODY_BYTES", 1024 * 1024)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return _text("Content-Length is not a number.", 400)
    if length > limit:
        return _text(f"The report is larger than the limit of {limit} bytes.", 413)
    if length == 0:
        return _text("The request has no body.", 400)

    if too_many_reports(request):
        return TOO_MANY()

    if not request.content_type.startswith("multipart/form-data"):
        return _text("Expected a multipart/form-data upload.", 400)
    try:
        upload = request.FILES.get("data")
    except MultiPartParserError:
        return _text("The multipart body could not be parsed.", 400)
    if upload is None:
        return _text("The upload has no 'data' part.", 400)
    return store(request, upload.read())


def TOO_MANY():
    return _text("Too many reports from this address; try again in a minute.", 429)


def store(request, data: bytes) -> HttpResponse:
    """Store a report's bytes durably and answer as the plugin expects."""
    try:
        services.accept_report(data, path=request.path)
    except ReportError as error:
        return _text(f"Not a feedback report: {error}.", 400)
    except StorageUnavailable:
        logger.warning("feedback report not stored: storage unavailable")
        return _text("Storage is unavailable; please retry later.", 503, **{"Retry-After": "60"})
    return HttpResponse(OK_BODY, content_type="text/html; charset=utf-8")


@extend_schema(
    tags=["feedback"],
    parameters=[OpenApiParameter("days", int, description="Only the last N days (1 to 3650)")],
    responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
)
def summary(request):
    """GET /api/feedback/summary[?days=N]: accepted reports, servers and breakdowns (JSON)."""
    from django.http import JsonResponse
    from django.utils.cache import patch_cache_control

    from feedback.summary import cached_summary

    days = request.GET.get("days")
    if days is not None and not (days.isdigit() and 0 < int(days) <= 3650):
        return JsonResponse({"error": "days must be a whole number from 1 to 3650"}, status=400)
    response = JsonResponse(cached_summary(int(days) if days else None))
    patch_cache_control(response, public=True, max_age=60)
    return response
