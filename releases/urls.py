from django.urls import path

from releases import api, compat, views

app_name = "releases"

urlpatterns = [
    path("download/", views.DownloadView.as_view(), name="download"),
    path("download/feed/", views.ReleaseFeed(), name="feed"),
    path("download/series/", views.SeriesIndexView.as_view(), name="series-index"),
    path("download/end-of-life.ics", views.end_of_life_calendar, name="eol-calendar"),
    path("download/<str:series>/feed/", views.SeriesReleaseFeed(), name="series-feed"),
    path("download/<str:series>/", views.SeriesView.as_view(), name="series"),
    path("download/<str:series>/<str:version>/", views.ReleaseView.as_view(), name="release"),
    path("api/releases/", api.SeriesListAPI.as_view(), name="api-series-list"),
    path("api/releases/<str:series>/", api.SeriesDetailAPI.as_view(), name="api-series"),
    path("api/releases/<str:series>/latest", api.LatestReleaseAPI.as_view(), name="api-latest"),
    path("api/releases/<str:series>/<str:version>/", api.ReleaseDetailAPI.as_view(), name="api-release"),
    # The mariadb.org downloads REST API (releases/compat.py). Its clients call some paths
    # without the trailing slash; those spellings answer too but stay out of the schema.
    path("rest-api/mariadb/", compat.MajorReleasesAPI.as_view(), name="compat-majors"),
    path("rest-api/mirrors/", compat.MirrorsAPI.as_view(), name="compat-mirrors"),
    path("rest-api/mirrors", compat.MirrorsAPI.as_view(schema=None)),
    path("rest-api/mariadb/<str:release_id>/latest/", compat.LatestReleaseAPI.as_view(), name="compat-latest"),
    path("rest-api/mariadb/<str:release_id>/latest", compat.LatestReleaseAPI.as_view(schema=None)),
    path("rest-api/mariadb/<int:file_ref>/checksum/", compat.ChecksumByIdAPI.as_view(), name="compat-checksum-id"),
    path("rest-api/mariadb/<str:release_id>/<str:file_ref>/checksum/", compat.ChecksumAPI.as_view(), name="compat-checksum"),
    path("rest-api/mariadb/<str:release_id>/<str:file_ref>/checksum", compat.ChecksumAPI.as_view(schema=None)),
    path("rest-api/mariadb/<str:release_id>/", compat.ReleasesAPI.as_view(), name="compat-releases"),
    path("rest-api/mariadb/<str:release_id>", compat.ReleasesAPI.as_view(schema=None)),
    path("rest-api/mariadb/<str:release_id>/<str:file_ref>", compat.DownloadAPI.as_view(), name="compat-download"),
]  # fmt: skip
