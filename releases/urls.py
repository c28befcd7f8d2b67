from django.urls import path, re_path, register_converter

from core.edge import shared_response
from releases import api, compat, downloads, views
from releases.versions import RELEASE_PATTERN, SERIES_OR_RELEASE_PATTERN, SERIES_PATTERN


class SeriesConverter:
    """A series such as 11.4 or 11.rolling: anything else is a 404 before any query."""

    regex = SERIES_PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


class VersionConverter(SeriesConverter):
    regex = RELEASE_PATTERN


class SeriesOrVersionConverter(SeriesConverter):
    regex = SERIES_OR_RELEASE_PATTERN


class FileRefConverter(SeriesConverter):
    """A file name as the mirrors spell them, or a file id."""

    regex = r"[A-Za-z0-9][A-Za-z0-9._+~-]{0,199}"


class FileIdConverter:
    regex = downloads.FILE_ID_PATTERN

    def to_python(self, value):
        return int(value)

    def to_url(self, value):
        return str(value)


register_converter(FileIdConverter, "file_id")
register_converter(SeriesConverter, "series")
register_converter(VersionConverter, "version")
register_converter(SeriesOrVersionConverter, "release_id")
register_converter(FileRefConverter, "file_ref")

app_name = "releases"

urlpatterns = [
    # The mariadb.org downloads REST API (releases/compat.py), first: installers call it.
    # Its clients call some paths without the trailing slash; those spellings answer too
    # but stay out of the schema.
    path("rest-api/mariadb/", shared_response(compat.MajorReleasesAPI.as_view()), name="compat-majors"),
    path("rest-api/mirrors/", shared_response(compat.MirrorsAPI.as_view()), name="compat-mirrors"),
    path("rest-api/mirrors", shared_response(compat.MirrorsAPI.as_view(schema=None))),
    path("rest-api/mariadb/<release_id:release_id>/latest/", shared_response(compat.LatestReleaseAPI.as_view()), name="compat-latest"),
    path("rest-api/mariadb/<release_id:release_id>/latest", shared_response(compat.LatestReleaseAPI.as_view(schema=None))),
    path("rest-api/mariadb/<file_id:file_ref>/checksum/", shared_response(compat.ChecksumByIdAPI.as_view()), name="compat-checksum-id"),
    path("rest-api/mariadb/<file_id:file_ref>/checksum", shared_response(compat.ChecksumByIdAPI.as_view(schema=None))),
    path("rest-api/mariadb/<release_id:release_id>/<file_ref:file_ref>/checksum/", shared_response(compat.ChecksumAPI.as_view()), name="compat-checksum"),
    path("rest-api/mariadb/<release_id:release_id>/<file_ref:file_ref>/checksum", shared_response(compat.ChecksumAPI.as_view(schema=None))),
    path("rest-api/mariadb/<release_id:release_id>/", shared_response(compat.ReleasesAPI.as_view()), name="compat-releases"),
    path("rest-api/mariadb/<release_id:release_id>", shared_response(compat.ReleasesAPI.as_view(schema=None))),
    path("rest-api/mariadb/<release_id:release_id>/<file_ref:file_ref>", compat.DownloadAPI.as_view(), name="compat-download"),
    path("download/", views.DownloadView.as_view(), name="download"),
    path("download/feed/", views.ReleaseFeed(), name="feed"),
    path("download/subscribe/", views.subscribe, name="subscribe"),
    path("download/subscribe/confirm/<str:token>/", views.confirm_subscription, name="subscription-confirm"),
    path("download/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("download/series/", views.SeriesIndexView.as_view(), name="series-index"),
    path("download/end-of-life.ics", views.end_of_life_calendar, name="eol-calendar"),
    path("download/<series:series>/feed/", views.SeriesReleaseFeed(), name="series-feed"),
    path("download/<series:series>/", views.SeriesView.as_view(), name="series"),
    path("download/<series:series>/<version:version>/", views.ReleaseView.as_view(), name="release"),
    path("api/releases/", shared_response(api.SeriesListAPI.as_view()), name="api-series-list"),
    path("api/releases/drafts/", api.ReleaseDraftAPI.as_view(), name="api-release-drafts"),
    path("api/releases/<series:series>/", shared_response(api.SeriesDetailAPI.as_view()), name="api-series"),
    path("api/releases/<series:series>/latest/", shared_response(api.LatestReleaseAPI.as_view()), name="api-latest"),
    path("api/releases/<series:series>/latest", shared_response(api.LatestReleaseAPI.as_view(schema=None))),
    path("api/releases/<series:series>/<version:version>/", shared_response(api.ReleaseDetailAPI.as_view()), name="api-release"),
    re_path(r"^(?:rest-api|api/releases)/(?P<rest>.*)$", compat.not_found),
]  # fmt: skip
