from django.urls import path

from benchmarks import api, views

app_name = "benchmarks"

urlpatterns = [
    path("benchmarks/", views.index, name="index"),
    path("benchmarks/<slug:slug>/", views.suite, name="suite"),
    path("benchmarks/<slug:slug>/runs/<int:pk>/", views.run_detail, name="run"),
    path("benchmarks/<slug:slug>/compare/", views.compare, name="compare"),
    path("benchmarks/<slug:slug>/files/<int:pk>/", views.download_attachment, name="attachment"),
    path("api/benchmarks/<slug:slug>.json", views.export_json, name="export-json"),
    path("api/benchmarks/<slug:slug>.csv", views.export_csv, name="export-csv"),
    path("api/benchmarks/<slug:slug>/runs/", api.RunUploadAPI.as_view(), name="upload"),
]
