from django.urls import path

from feedback.trends import views

app_name = "trends"

urlpatterns = [
    path("feedback/", views.dashboard, name="dashboard"),
    path("feedback/privacy/", views.privacy, name="privacy"),
    path("feedback/staff/", views.staff, name="staff"),
    path("api/feedback/trends/<slug:dimension>", views.trend_api, name="trend"),
    path("api/feedback/trends/<slug:dimension>.json", views.trend_api, name="trend-json"),
    path(
        "api/feedback/trends/<slug:dimension>.csv",
        views.trend_api,
        {"fmt": "csv"},
        name="trend-csv",
    ),
]
