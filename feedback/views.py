"""The endpoint MariaDB servers with feedback=ON post their reports to."""

import hashlib
import logging
import time
from contextlib import suppress
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpResponse, JsonResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema

from core import cache, numbers, opendata
from core.client import client_address
from core.geo import country_of
from core.outagelog import OutageLog
from feedback import tasks
from feedback.checks import parse_rate
from feedback.dimensions import WINDOWS
from feedback.ingest import StorageUnavailable
from feedback.limits import BodySizeError, checked_body_size
from feedback.parser import ReportError
from feedback.services import intake
from feedback.summary import (
    SUMMARY_FIELDS,
    MonthNotCounted,
    cached_summary,
    check_month,
    summary_period_name,
    summary_rows,
)

logger = logging.getLogger(__name__)

OK_BODY = "<html><body><h1>ok</h1></body></html>\n"
DATA_FIELD = "data"  # the plugin uploads its report as this file field
RATE_LIMIT_GROUP = "feedback-post"
# One line when reports stop being stored (per process) and one, with how many were
# answered 503, when one is stored again: a 20 s outage had written 2,399 identical lines.
STORAGE_OUTAGE = OutageLog(
    logger,
    "feedback storage",
    "reports answered 503 with Retry-After",
    counted="reports answered 503",
)


def _text(message: str, status: int, **headers) -> HttpResponse:
    response = HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")
    for name, value in headers.items():
        response[name] = value
    return response


@csrf_exempt
def receive_report(request):
    """POST /rest/v1/post (and the legacy path): one report, as the plugin uploads it.

    The declared size is checked before a byte is read; the rate limit is django-ratelimit's,
    on the client's address (``RATELIMIT_IP_META_KEY``), and fails open with Redis down;
    the report is the upload's ``data`` file part, read by Django's multipart parser.
    Whatever the answer, ``core.uploads.DrainRequestBodyMiddleware`` reads what is left of
    the body, so nginx's keep-alive connection stays at a request boundary.
    """
    if request.method != "POST":
        return _text("Only POST is accepted here.", 405, Allow="POST")
    try:
        checked_body_size(request.META.get("CONTENT_LENGTH"))
    except BodySizeError as error:
        return _text(str(error), error.status)
    if too_many_reports(request):
        return TOO_MANY()
    if request.content_type != "multipart/form-data":
        return _text("Expected a multipart/form-data upload.", 400)
    try:
        upload = request.FILES.get(DATA_FIELD)
    except (MultiPartParserError, RequestDataTooBig, TooManyFieldsSent, UnreadablePostError):
        return _text("The multipart body could not be parsed.", 400)
    if upload is None:
        return _text(f"The upload has no '{DATA_FIELD}' part.", 400)
    return store(request, upload.read())


def too_many_reports(request) -> bool:
    """Count this post against its address (an IPv6 address by its /64, as django-ratelimit
    keys it; hashed: Redis keeps no address); True when the address is over the limit.

    One round trip to Redis (``core.cache.count``): django-ratelimit's ``add`` then
    ``incr`` took two, and its get_usage about a third of the processor time of a post
    (docs/PERFORMANCE.md). Fails open, as django-ratelimit does with
    ``RATELIMIT_FAIL_OPEN``: a report is worth more than the limit."""
    limit, period = parse_rate(settings.FEEDBACK_RATE_LIMIT)
    client = client_address(request)
    address: str | IPv4Network | IPv6Network = client
    with suppress(ValueError):  # not an address (a Unix socket's empty one): as it is
        if (parsed := ip_address(client)).version == 6:
            address = ip_network(f"{parsed}/{settings.RATELIMIT_IPV6_MASK}", strict=False)
    window = int(time.time()) // period
    digest = hashlib.sha256(f"{RATE_LIMIT_GROUP}:{address}".encode()).hexdigest()
    count = cache.count(
        f"rl:{RATE_LIMIT_GROUP}:{window}:{digest}", period, settings.RATELIMIT_USE_CACHE
    )
    return count is not None and count > limit


def TOO_MANY():
    return _text("Too many reports from this address; try again in a minute.", 429)


def store(request, data: bytes) -> HttpResponse:
    """Store a report's bytes durably and answer as the plugin expects."""
    try:
        intake.accept_report(
            data,
            path=request.path,
            handover=tasks.wake_processing,
            country=country_of(client_address(request)) or "",
        )
    except ReportError as error:
        return _text(f"Not a feedback report: {error}.", 400)
    except StorageUnavailable as error:
        STORAGE_OUTAGE.down(error)
        return _text("Storage is unavailable; please retry later.", 503, **{"Retry-After": "60"})
    STORAGE_OUTAGE.up()
    return HttpResponse(OK_BODY, content_type="text/html; charset=utf-8")


@extend_schema(
    tags=["feedback"],
    parameters=[
        OpenApiParameter("days", int, description="Only the last N days (1 to 3650)"),
        OpenApiParameter("window", str, enum=list(WINDOWS), description="Complete days"),
        OpenApiParameter("month", str, description="A calendar month, YYYY-MM"),
    ],
    responses={
        200: OpenApiTypes.OBJECT,
        (200, "text/csv"): OpenApiTypes.STR,
        400: OpenApiTypes.OBJECT,
    },
)
def summary(request, fmt="json"):
    """GET /api/feedback/summary[.json|.csv][?days=N | ?window=30d|90d|365d | ?month=YYYY-MM]:
    reports, servers and breakdowns with the period they count (JSON), or the same
    breakdowns as a typed CSV, one row per value (``feedback.summary.summary_rows``)."""
    days = request.GET.get("days")
    window = request.GET.get("window") or None
    month = request.GET.get("month") or None
    try:  # ASCII digits only (issue 58: ?days=² was a 500, ?days=30 in full-width digits read as 30)
        month = None if month is None else numbers.parse_month(month, "month")
        days = None if days is None else numbers.parse_int(days, "days", minimum=1, maximum=3650)
    except numbers.NumberRefused as error:
        return JsonResponse({"error": str(error)}, status=400)
    if window is not None and window not in WINDOWS:
        return JsonResponse({"error": "window must be one of 30d, 90d, 365d"}, status=400)
    if sum(bool(choice) for choice in (days, window, month)) > 1:
        return JsonResponse({"error": "give one of days, window or month"}, status=400)
    if month is not None:
        try:
            check_month(month, timezone.localdate())
        except MonthNotCounted as error:
            return JsonResponse({"error": str(error)}, status=400)
    figures = cached_summary(days, window, month)
    if fmt == "csv":
        name = f"mariadb-usage-summary-{summary_period_name(figures)}.csv"
        return opendata.csv_response(name, SUMMARY_FIELDS, summary_rows(figures))
    return JsonResponse(figures)
