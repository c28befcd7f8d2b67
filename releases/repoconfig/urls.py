from django.urls import path

from core.edge import shared_response
from releases.repoconfig import views

app_name = "repoconfig"

urlpatterns = [
    path("download/repo-config/", views.generator, name="generator"),
    path("api/repo-config", shared_response(views.repo_config_api), name="api"),
    path("api/repo-config/options", shared_response(views.options_api), name="options"),
]
