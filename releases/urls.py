from django.urls import path

from releases import api, views

app_name = "releases"

urlpatterns = [
    path("download/", views.DownloadView.as_view(), name="download"),
    path("download/feed/", views.ReleaseFeed(), name="feed"),
    path("download/series/", views.SeriesIndexView.as_view(), name="series-index"),
    path("download/<str:series>/", views.SeriesView.as_view(), name="series"),
    path("download/<str:series>/<str:version>/", views.ReleaseView.as_view(), name="release"),
    path("api/releases/", api.SeriesListAPI.as_view(), name="api-series-list"),
    path("api/releases/<str:series>/", api.SeriesDetailAPI.as_view(), name="api-series"),
    path("api/releases/<str:series>/latest", api.LatestReleaseAPI.as_view(), name="api-latest"),
]
