from django.urls import path, re_path

from core.edge import shared_response
from feedback.trends import views

app_name = "trends"

urlpatterns = [
    path("feedback/", views.dashboard, name="dashboard"),
    path("feedback/privacy/", views.privacy, name="privacy"),
    path("feedback/staff/", views.staff, name="staff"),
    path("api/feedback/trends/<slug:dimension>", shared_response(views.trend_api), name="trend"),
    path(
        "api/feedback/trends/<slug:dimension>.json",
        shared_response(views.trend_api),
        name="trend-json",
    ),
    path(
        "api/feedback/trends/<slug:dimension>.csv",
        shared_response(views.trend_api),
        {"fmt": "csv"},
        name="trend-csv",
    ),
    path(
        "api/feedback/charts/<slug:chart_id>.csv",
        shared_response(views.chart_download),
        {"fmt": "csv"},
        name="chart-csv",
    ),
    path(
        "api/feedback/charts/<slug:chart_id>.json",
        shared_response(views.chart_download),
        {"fmt": "json"},
        name="chart-json",
    ),
    path("api/feedback/datapackage.json", views.datapackage, name="datapackage"),
    path("api/feedback/snapshots/", shared_response(views.snapshot_list), name="snapshots"),
    path(
        "api/feedback/snapshots/README.md",
        shared_response(views.snapshot_readme, max_age=86400),
        name="snapshots-readme",
    ),
    re_path(
        r"^api/feedback/snapshots/(?P<year>[0-9]{4})-(?P<month>[0-9]{2})\.(?P<fmt>json|csv|datapackage\.json)$",
        shared_response(views.snapshot_detail, max_age=86400),
        name="snapshot",
    ),
]
