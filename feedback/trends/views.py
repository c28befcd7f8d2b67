import csv

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from feedback.anonymity import minimum_servers
from feedback.dimensions import DIMENSIONS
from feedback.models import RawReport, Report
from feedback.trends import charts, data
from feedback.trends.periods import PERIODS

CHARTABLE = {"servers": "Active servers", **DIMENSIONS}


@require_GET
def dashboard(request):
    period = request.GET.get("period", "month")
    if period not in PERIODS:
        period = "month"
    dashboard_data = data.dashboard(period)
    context = {
        "data": dashboard_data,
        "charts": charts.build(dashboard_data) if dashboard_data["labels"] else [],
        "periods": PERIODS,
        "dimension_labels": list(CHARTABLE),
        "reach_thresholds": [5, 10, 50, 100],
    }
    response = render(request, "trends/dashboard.html", context)
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_GET
def trend_api(request, dimension, fmt="json"):
    if dimension not in CHARTABLE:
        raise Http404("unknown dimension")
    period = request.GET.get("period", "month")
    if period not in PERIODS:
        return JsonResponse({"error": f"period must be one of {', '.join(PERIODS)}"}, status=400)
    trend = data.trend(dimension, period)
    if fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="mariadb-{dimension}-{period}.csv"'
        writer = csv.writer(response)
        writer.writerow(["period_start", *trend["values"].keys()])
        for index, start in enumerate(trend["periods"]):
            writer.writerow([start, *(counts[index] for counts in trend["values"].values())])
    else:
        response = JsonResponse(trend)
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_GET
def privacy(request):
    return render(
        request,
        "trends/privacy.html",
        {
            "minimum": minimum_servers(),
            "retention_days": settings.FEEDBACK_RAW_RETENTION_DAYS,
        },
    )


@staff_member_required
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
    }
    return render(request, "trends/staff.html", context)
