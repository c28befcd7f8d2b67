from django.urls import path

from core.edge import shared_response
from feedback import views

app_name = "feedback"

# No trailing slash: the plugin posts to exactly these paths and cannot follow a redirect.
urlpatterns = [
    path("rest/v1/post", views.receive_report, name="post"),
    path("feedback_plugin/post", views.receive_report, name="post-legacy"),
    path("api/feedback/summary", shared_response(views.summary, live=True), name="summary"),
    path(
        "api/feedback/summary.json",
        shared_response(views.summary, live=True),
        name="summary-json",
    ),
    path(
        "api/feedback/summary.csv",
        shared_response(views.summary, live=True),
        {"fmt": "csv"},
        name="summary-csv",
    ),
]
