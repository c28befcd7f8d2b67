import datetime

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema

from core import opendata
from feedback.anonymity import minimum_servers
from feedback.dimensions import DIMENSIONS
from feedback.models import RawReport, Report, TestTrafficRule
from feedback.trends import charts, data, packages
from feedback.trends.models import Snapshot
from feedback.trends.periods import PERIODS, WINDOWS
from feedback.trends.snapshots import (
    LICENCE,
    csv_checksum,
    sha256,
    snapshot_csv,
    snapshot_descriptor,
    snapshot_json,
)

CHARTABLE = {"servers": "Active servers", **DIMENSIONS}


class BadQuery(ValueError):
    pass


def _period_and_window(request, *, strict: bool):
    period = request.GET.get("period", "month")
    window = request.GET.get("window") or None
    if period not in PERIODS:
        if strict:
            raise BadQuery(f"period must be one of {', '.join(PERIODS)}")
        period = "month"
    if window is not None and window not in WINDOWS:
        if strict:
            raise BadQuery(f"window must be one of {', '.join(WINDOWS)}")
        window = None
    return period, window


def _bad(error):
    return JsonResponse({"error": str(error)}, status=400)


def _licensed(response):
    """The licence and attribution travel in the headers: a CSV starts with its header row."""
    response["Link"] = f'<{LICENCE["url"]}>; rel="license"'
    response["X-Attribution"] = LICENCE["attribution"]
    return response


def _csv(filename: str, export: dict | None = None, text: str | None = None) -> HttpResponse:
    """A typed CSV (``core.opendata``): a withheld figure is an empty cell with its
    ``<field>_withheld`` column true, never 0 and never text."""
    if text is None:
        assert export is not None  # a CSV is made from an export or given as text
        return _licensed(opendata.csv_response(filename, export["fields"], export["rows"]))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return _licensed(response)


@require_GET
def dashboard(request):
    period, window = _period_and_window(request, strict=False)
    dashboard_data = data.dashboard(period, window)
    built = charts.build(dashboard_data) if dashboard_data["labels"] else []
    context = {
        "data": dashboard_data,
        "sections": charts.sections([charts.for_page(chart) for chart in built]),
        "periods": PERIODS,
        "windows": WINDOWS,
        "dimension_labels": list(CHARTABLE),
        "licence": LICENCE,
    }
    response = render(request, "trends/dashboard.html", context)
    patch_cache_control(response, public=True, max_age=300)
    return response


@extend_schema(
    tags=["feedback"],
    parameters=[
        OpenApiParameter(
            "dimension",
            str,
            OpenApiParameter.PATH,
            description="servers or a breakdown such as version, os, architecture",
        ),
        OpenApiParameter(
            "period", str, enum=list(PERIODS), description="Rollup period (default month)"
        ),
    ],
    responses={
        200: OpenApiTypes.OBJECT,
        (200, "text/csv"): OpenApiTypes.STR,
        400: OpenApiTypes.OBJECT,
        404: None,
    },
)
@require_GET
def trend_api(request, dimension, fmt="json"):
    if dimension not in CHARTABLE:
        raise Http404("unknown dimension")
    try:
        period, window = _period_and_window(request, strict=True)
    except BadQuery as error:
        return _bad(error)
    trend = data.trend(dimension, period, window)
    if fmt == "csv":
        name = f"mariadb-{dimension}-{window or period}.csv"
        first_day = data.first_report_day()
        export = charts.trend_export(trend, first_day.isoformat() if first_day else None)
        return _cached(_csv(name, export))
    return _cached(_licensed(JsonResponse({**trend, "licence": LICENCE})))


@require_GET
def chart_download(request, chart_id, fmt):
    """Every dashboard chart's figures (its data table) as CSV or JSON."""
    try:
        period, window = _period_and_window(request, strict=True)
    except BadQuery as error:
        return _bad(error)
    dashboard_data = data.dashboard(period, window)
    chart = next((c for c in charts.build(dashboard_data) if c["id"] == chart_id), None)
    if chart is None:
        raise Http404("no such chart")
    if fmt == "csv":
        name = f"mariadb-{chart_id}-{window or period}.csv"
        return _cached(_csv(name, chart["export"]))
    return _cached(
        JsonResponse(
            {
                "chart": chart_id,
                "title": chart["title"],
                "description": chart["description"],
                "note": chart.get("note", ""),
                "scope": chart["scope"],
                "reports_begin": dashboard_data["reports_begin"],
                "period": period,
                "window": window,
                "selected": dashboard_data["selected"],
                "min_bucket_servers": dashboard_data["minimum"],
                "headers": chart["table"]["headers"],
                "rows": chart["table"]["rows"],
                "licence": LICENCE,
            }
        )
    )


def _cached(response, max_age=300):
    patch_cache_control(response, public=True, max_age=max_age)
    return response


def _snapshot_files(request, snapshot) -> dict:
    name = f"{snapshot.month:%Y-%m}"
    url = reverse("trends:snapshots")
    return {
        "json": {
            "url": request.build_absolute_uri(f"{url}{name}.json"),
            "sha256": snapshot.sha256,
        },
        "csv": {
            "url": request.build_absolute_uri(f"{url}{name}.csv"),
            "sha256": csv_checksum(snapshot),
        },
        "datapackage": {
            "url": request.build_absolute_uri(f"{url}{name}.datapackage.json"),
            "sha256": sha256(snapshot_descriptor(snapshot)),
        },
    }


@require_GET
def snapshot_list(request):
    snapshots = [
        {
            "month": s.month.strftime("%Y-%m"),
            "published_at": s.published_at.isoformat(),
            "sha256": s.sha256,
            "files": _snapshot_files(request, s),
        }
        for s in Snapshot.objects.all()
    ]
    return _cached(
        _licensed(
            JsonResponse(
                {
                    "snapshots": snapshots,
                    "readme": request.build_absolute_uri(reverse("trends:snapshots-readme")),
                    "datapackage": request.build_absolute_uri(reverse("trends:datapackage")),
                    "licence": LICENCE,
                }
            )
        )
    )


@require_GET
def snapshot_readme(request):
    """What the snapshot files hold, their licence and how to cite and check them."""
    response = render(
        request,
        "trends/snapshots_readme.md",
        {
            "licence": LICENCE,
            "minimum": minimum_servers(),
            "snapshots": [(s, _snapshot_files(request, s)) for s in Snapshot.objects.all()],
            "index": request.build_absolute_uri(reverse("trends:snapshots")),
        },
        content_type="text/markdown; charset=utf-8",
    )
    return _cached(_licensed(response))


@require_GET
def snapshot_detail(request, year, month, fmt):
    year, month = int(year), int(month)
    # The address takes any four digits; year 0000 has no date, so the lookup would fail.
    if not (datetime.MINYEAR <= year <= datetime.MAXYEAR and 1 <= month <= 12):
        raise Http404("no such month")
    snapshot = get_object_or_404(Snapshot, month=datetime.date(year, month, 1))
    if fmt == "csv":
        text = snapshot_csv(snapshot)
        response = _csv(f"mariadb-usage-{year:04d}-{month:02d}.csv", text=text)
        response["ETag"] = f'"{sha256(text)}"'
    elif fmt == "datapackage.json":
        text = snapshot_descriptor(snapshot)
        response = _licensed(HttpResponse(text, content_type="application/json"))
        response["ETag"] = f'"{sha256(text)}"'
    else:
        response = _licensed(
            HttpResponse(
                snapshot_json(snapshot.data), content_type="application/json; charset=utf-8"
            )
        )
        response["ETag"] = f'"{snapshot.sha256}"'
    return _cached(response, max_age=86400)


@require_GET
def datapackage(request):
    """The Data Package of the usage statistics: every CSV with its Table Schema."""
    descriptor = packages.usage_package(
        request.build_absolute_uri, data.dashboard("month"), list(CHARTABLE)
    )
    return _cached(_licensed(opendata.descriptor_response(descriptor)))


@require_GET
def privacy(request):
    return render(
        request,
        "trends/privacy.html",
        {
            "minimum": minimum_servers(),
            "retention_days": settings.FEEDBACK_RAW_RETENTION_DAYS,
            "licence": LICENCE,
        },
    )


# What the page shows: the admin asks the same permissions of the same rows.
STAFF_PAGE_PERMISSIONS = (
    "feedback.view_report",
    "feedback.view_rawreport",
    "feedback.view_testtrafficrule",
)


@staff_member_required
@permission_required(STAFF_PAGE_PERMISSIONS, raise_exception=True)
def staff(request):
    context = {
        "recent": Report.objects.select_related("server").order_by("-id")[:25],
        "pending": RawReport.objects.pending().count(),
        "oldest_pending": RawReport.objects.pending()
        .order_by("id")
        .values_list("received_at", flat=True)
        .first(),
        "rejected": RawReport.objects.rejected().order_by("-id")[:25],
        "rejected_count": RawReport.objects.rejected().count(),
        "test_rules": TestTrafficRule.objects.all(),
        "test_reports": Report.objects.filter(is_test=True).count(),
    }
    return render(request, "trends/staff.html", context)
