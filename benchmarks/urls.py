from django.urls import path

from benchmarks import api, feeds, views
from core.pagecache import shared_response

app_name = "benchmarks"

urlpatterns = [
    path("benchmarks/", views.index, name="index"),
    path("benchmarks/regressions.atom", feeds.ChangesFeed(), name="changes-feed-all"),
    path("benchmarks/<slug:slug>/", views.suite, name="suite"),
    path("benchmarks/<slug:slug>/regressions.atom", feeds.ChangesFeed(), name="changes-feed"),
    path("benchmarks/<slug:slug>/charts/<slug:metric>/", views.chart_page, name="chart"),
    path(
        "benchmarks/<slug:slug>/charts/<slug:metric>.svg",
        views.chart_image,
        {"fmt": "svg"},
        name="chart-svg",
    ),
    path(
        "benchmarks/<slug:slug>/charts/<slug:metric>.png",
        views.chart_image,
        {"fmt": "png"},
        name="chart-png",
    ),
    path(
        "benchmarks/<slug:slug>/history/<int:index>.<str:fmt>",
        views.history_image,
        name="history-image",
    ),
    path("benchmarks/<slug:slug>/runs/<int:pk>/", views.run_detail, name="run"),
    path("benchmarks/<slug:slug>/submit/", views.submit, name="submit"),
    path("accounts/benchmarks/", views.account, name="account"),
    path("benchmarks/client/submit_run.py", views.submit_client, name="submit-client"),
    path("accounts/benchmarks/tokens/", views.create_token, name="create-token"),
    path("accounts/benchmarks/tokens/<int:pk>/revoke/", views.revoke_token, name="revoke-token"),
    path("benchmarks/<slug:slug>/compare/", views.compare, name="compare"),
    path("benchmarks/<slug:slug>/files/<int:pk>/", views.download_attachment, name="attachment"),
    # before the suite downloads, whose slug it would otherwise be read as
    path("api/benchmarks/datapackage.json", views.datapackage, name="datapackage"),
    path("api/benchmarks/<slug:slug>.json", shared_response(views.export_json), name="export-json"),
    path("api/benchmarks/<slug:slug>.csv", shared_response(views.export_csv), name="export-csv"),
    path("api/benchmarks/<slug:slug>/runs/", api.RunUploadAPI.as_view(), name="upload"),
    path(
        "api/benchmarks/<slug:slug>/runs/<int:pk>/",
        api.RunStatusAPI.as_view(),
        name="upload-status",
    ),
]
