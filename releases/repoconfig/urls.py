from django.urls import path

from releases.repoconfig import views

app_name = "repoconfig"

urlpatterns = [
    path("download/repo-config/", views.generator, name="generator"),
    path("api/repo-config", views.repo_config_api, name="api"),
    path("api/repo-config/options", views.options_api, name="options"),
]
