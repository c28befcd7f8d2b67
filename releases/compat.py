"""The mariadb.org downloads REST API, same paths and JSON shapes (see docs/releases.md).

GET /rest-api/mariadb/                                   major releases (series)
GET /rest-api/mariadb/<series>/[?os=&cpu=]               {"releases": {version: release}},
                                                         newest first, none with files pending
GET /rest-api/mariadb/<series>/latest/[?os=&cpu=]        the same, only the newest release with
                                                         files (Release.objects.latest_in)
GET /rest-api/mariadb/<version>/[?os=&cpu=]              {"release_data": {version: release}}
GET /rest-api/mariadb/<version>/<file_name>/checksum/    {"response": {"checksum": {...}}}
GET /rest-api/mariadb/<file_id>/checksum/                the same, by file id
GET /rest-api/mariadb/<version>/<file_name or id>[?mirror=]  302 to the file on a mirror
GET /rest-api/mirrors/                                   {"mirror_list": {country: [mirror]}}
"""

from django.http import HttpResponsePermanentRedirect, HttpResponseRedirect, JsonResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response

from core.client import client_address
from core.geo import country_of
from releases import downloads
from releases.api import PublicAPIView
from releases.catalogue import SUPPORT_TYPES
from releases.models import Release, ReleaseFile, Series
from releases.repoconfig.models import Mirror
from releases.services import mirroring
from releases.versions import RELEASE_VERSION, SERIES_OR_RELEASE_PATTERN, SERIES_VERSION

STATUS_WORDS = {
    "preview": "Preview",
    "alpha": "Alpha",
    "beta": "Beta",
    "rc": "RC",
    "stable": "Stable",
    "old-stable": "Old Stable",
    "eol": "Old Stable",
}
# The live service's words for Series.SupportType (one home: the catalogue's mapping).
SUPPORT_WORDS = {value: word for word, value in SUPPORT_TYPES.items()} | {"unannounced": None}
MATURITY_WORDS = {
    "preview": "Preview",
    "alpha": "Alpha",
    "beta": "Beta",
    "rc": "RC",
    "ga": "Stable",
}
OS_WORDS = {
    ReleaseFile.OS.SOURCE: "Source",
    ReleaseFile.OS.LINUX: "Linux",
    ReleaseFile.OS.WINDOWS: "Windows",
}
PACKAGE_WORDS = {
    ReleaseFile.PackageType.SOURCE_TAR: "gzipped tar file",
    ReleaseFile.PackageType.BINARY_TAR: "gzipped tar file",
    ReleaseFile.PackageType.MSI: "MSI Package",
    ReleaseFile.PackageType.ZIP: "ZIP file",
}
# Mirrors are checked every 30 minutes (releases.tasks.check_mirrors); asking again sooner
# than a few minutes rarely finds one back.
NO_MIRROR_RETRY_AFTER_SECONDS = 600
CPU_ALIASES = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "aarch64": "aarch64",
    "arm64": "aarch64",
    "x86": "x86",
    "i686": "x86",
}


class FileFilter(serializers.Serializer):
    """?os= and ?cpu= as the live API names them (case does not matter)."""

    os = serializers.ChoiceField(
        choices=[word.lower() for word in OS_WORDS.values()], required=False
    )
    cpu = serializers.ChoiceField(choices=sorted(CPU_ALIASES), required=False)

    def to_internal_value(self, data):
        lowered = {key: str(data[key]).strip().lower() for key in ("os", "cpu") if data.get(key)}
        return super().to_internal_value(lowered)


def file_filter(request):
    """The validated filters, or a 400 Response naming the bad parameter."""
    params = FileFilter(data=request.query_params)
    if not params.is_valid():
        reasons = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in params.errors.items())
        return None, Response({"error": reasons}, status=400)
    wanted = params.validated_data
    os_value = next((k for k, v in OS_WORDS.items() if v.lower() == wanted.get("os")), None)
    return {"os": os_value, "cpu": CPU_ALIASES.get(wanted.get("cpu", ""))}, None


def checksum_object(file):
    """Every digest the archive publishes for the file; null where none is recorded."""
    return {
        "md5sum": file.md5 or None,
        "sha1sum": file.sha1 or None,
        "sha256sum": file.sha256 or None,
        "sha512sum": file.sha512 or None,
    }


def file_object(request, release, file, mirror):
    absolute = request.build_absolute_uri
    return {
        "file_id": file.pk,
        "file_name": file.file_name,
        "package_type": PACKAGE_WORDS.get(file.package_type, file.package_type),
        "os": OS_WORDS.get(file.os),
        "cpu": file.architecture or None,
        "checksum": checksum_object(file),
        "signature": file.signature_for_api(mirror),
        "checksum_url": absolute(
            reverse("releases:compat-checksum", args=[release.version, file.file_name])
        ),
        "signature_url": file.signature_url(mirror),
        "file_download_url": absolute(
            reverse("releases:compat-download", args=[release.version, file.file_name])
        ),
    }


def release_object(request, release, filters, mirror):
    page = request.build_absolute_uri(release.get_absolute_url())
    files = [
        f
        for f in release.files.all()
        if (not filters["os"] or f.os == filters["os"])
        and (not filters["cpu"] or f.runs_on(filters["cpu"]))
    ]
    return {
        "release_id": release.version,
        "release_name": f"MariaDB Server {release.version}",
        "release_status": MATURITY_WORDS[release.maturity],
        "date_of_release": release.release_date.isoformat(),
        # Staff's own notes are on the release page; until they write them, the real ones.
        "release_notes_url": page + "#notes"
        if release.release_notes
        else release.kb_release_notes_url,
        "change_log": page + "#changelog" if release.changelog else release.kb_changelog_url,
        "files": [file_object(request, release, f, mirror) for f in files],
        # Added to the live shape: a release published before its files were recorded.
        "files_pending": release.files_pending,
        "files_note": release.files_note or None,
    }


def default_mirror():
    return Mirror.objects.for_country(None).first()


def with_files(queryset):
    return queryset.published().by_version().select_related("series").prefetch_related("files")


# Serializers only describe the shapes for the OpenAPI schema.
class ChecksumShape(serializers.Serializer):
    md5sum = serializers.CharField(allow_null=True, help_text="null where not recorded")
    sha1sum = serializers.CharField(allow_null=True, help_text="null where not recorded")
    sha256sum = serializers.CharField(allow_null=True)
    sha512sum = serializers.CharField(allow_null=True)


class FileShape(serializers.Serializer):
    file_id = serializers.IntegerField()
    file_name = serializers.CharField()
    package_type = serializers.CharField(help_text="gzipped tar file, ZIP file or MSI Package")
    os = serializers.CharField(allow_null=True, help_text="Source, Linux or Windows")
    cpu = serializers.CharField(allow_null=True, help_text="x86_64, aarch64, x86; null for source")
    checksum = ChecksumShape()
    signature = serializers.CharField(
        allow_null=True,
        help_text="This file's detached signature: its ASCII-armoured text where it was read "
        "from the archive, else the address of the .asc (signature_url); null only without one.",
    )
    checksum_url = serializers.URLField()
    signature_url = serializers.URLField(allow_null=True)
    file_download_url = serializers.URLField()


class ReleaseShape(serializers.Serializer):
    release_id = serializers.CharField()
    release_name = serializers.CharField()
    release_status = serializers.CharField()
    date_of_release = serializers.DateField()
    release_notes_url = serializers.URLField(
        help_text="The release page's notes, or the MariaDB Knowledge Base's until written here"
    )
    change_log = serializers.URLField(
        help_text="The release page's changelog, or the MariaDB Knowledge Base's until written here"
    )
    files = FileShape(many=True)
    files_pending = serializers.BooleanField(
        help_text="True while the files of a release published without them are on their way; "
        "files is empty until they are recorded."
    )
    files_note = serializers.CharField(
        allow_null=True, help_text="Says that the files are on their way, or null."
    )


class MajorShape(serializers.Serializer):
    release_id = serializers.CharField()
    release_name = serializers.CharField()
    release_status = serializers.CharField(
        help_text="Stable, Old Stable, RC, Beta, Alpha or Preview"
    )
    release_support_type = serializers.CharField(allow_null=True)
    release_eol_date = serializers.DateField(allow_null=True)


class MirrorShape(serializers.Serializer):
    mirror_id = serializers.CharField()
    mirror_name = serializers.CharField()
    mirror_url = serializers.URLField()
    country = serializers.CharField()


ERROR = OpenApiResponse(
    inline_serializer("CompatError", {"error": serializers.CharField()}), description="Why not"
)
FILTERS = [
    OpenApiParameter("os", str, enum=list(OS_WORDS.values()), description="Only files for this OS (any letter case)."),
    OpenApiParameter("cpu", str, enum=sorted(CPU_ALIASES), description="Only files for this architecture: x86_64 (amd64) or aarch64 (arm64); files built for none (source) always match."),
]  # fmt: skip
RELEASE_ID = OpenApiParameter(
    "release_id",
    str,
    OpenApiParameter.PATH,
    pattern=f"^{SERIES_OR_RELEASE_PATTERN}$",
    description="A series (11.4: every release of it) or a release (11.4.2: that release).",
)


RELEASES_RESPONSES = {
    200: OpenApiResponse(
        inline_serializer(
            "CompatReleases",
            {
                "releases": serializers.DictField(child=ReleaseShape(), required=False),
                "release_data": serializers.DictField(child=ReleaseShape(), required=False),
            },
        ),
        description='A series gives {"releases": {version: release}}, newest first; '
        'a release gives {"release_data": {version: release}}.',
    ),
    400: ERROR,
    404: ERROR,
}


class MajorReleasesAPI(PublicAPIView):
    """Every MariaDB series ("major release") with its status, support type and end of life."""

    @extend_schema(
        operation_id="compat_major_releases",
        tags=["mariadb.org compatible"],
        responses=inline_serializer(
            "CompatMajorReleases", {"major_releases": MajorShape(many=True)}
        ),
    )
    def get(self, request):
        series = sorted(Series.objects.all(), key=lambda s: s.sort_key, reverse=True)
        return Response(
            {
                "major_releases": [
                    {
                        "release_id": s.version,
                        "release_name": f"MariaDB Server {s.version}",
                        "release_status": STATUS_WORDS[s.status],
                        "release_support_type": SUPPORT_WORDS[s.support_type],
                        "release_eol_date": s.eol_date.isoformat() if s.eol_date else None,
                    }
                    for s in series
                ]
            }
        )


class ReleasesAPI(PublicAPIView):
    """A series' point releases with their files, or one release with its files."""

    @extend_schema(
        operation_id="compat_releases",
        tags=["mariadb.org compatible"],
        parameters=[RELEASE_ID, *FILTERS],
        responses=RELEASES_RESPONSES,
    )
    def get(self, request, release_id, latest=False):
        filters, error = file_filter(request)
        if error:
            return error
        mirror = default_mirror()
        if RELEASE_VERSION.match(release_id) and not latest:
            release = with_files(Release.objects).filter(version=release_id).first()
            if release is None:
                return Response({"error": f"No published release {release_id}."}, status=404)
            return Response(
                {
                    "release_data": {
                        release.version: release_object(request, release, filters, mirror)
                    }
                }
            )
        missing = Response({"error": f"No series or release {release_id[:40]!r}."}, status=404)
        if not SERIES_VERSION.match(release_id):
            return missing
        releases = with_files(Release.objects).filter(series__version=release_id)
        if latest:
            newest = Release.objects.latest_in(release_id)
            releases = list(releases.filter(pk=newest.pk)) if newest else []
        else:
            # Newest version first (the order of every API); a release whose files are on
            # their way is left out of the listing (it answers at its own address, marked
            # files_pending), so a client that takes the first entry (MariaDB/mariadb-docker's
            # update.sh: first(.releases[])) never gets a release it cannot download.
            releases = list(releases.filter(files_pending=False))
        if not releases and not Series.objects.filter(version=release_id).exists():
            return missing
        return Response(
            {"releases": {r.version: release_object(request, r, filters, mirror) for r in releases}}
        )


class LatestReleaseAPI(ReleasesAPI):
    """The newest published release of a series that has files, in the series shape: a
    release whose files are still on their way is never handed out as the latest."""

    @extend_schema(
        operation_id="compat_latest_release",
        tags=["mariadb.org compatible"],
        parameters=[*FILTERS],
        responses=RELEASES_RESPONSES,
    )
    def get(self, request, release_id):
        if not SERIES_VERSION.match(release_id):
            return Response({"error": "latest/ follows a series such as 11.4."}, status=404)
        return super().get(request, release_id, latest=True)


CHECKSUM_RESPONSES = {
    200: inline_serializer(
        "CompatChecksumResponse",
        {"response": inline_serializer("CompatChecksumBody", {"checksum": ChecksumShape()})},
    ),
    404: ERROR,
}


class ChecksumAPI(PublicAPIView):
    """The checksums of one file, by release and file name."""

    @extend_schema(
        operation_id="compat_file_checksum",
        tags=["mariadb.org compatible"],
        responses=CHECKSUM_RESPONSES,
    )
    def get(self, request, file_ref, release_id=None):
        file = downloads.published_file(release_id, file_ref)
        if file is None:
            return Response({"error": "No such file."}, status=404)
        return Response({"response": {"checksum": checksum_object(file)}})


class ChecksumByIdAPI(ChecksumAPI):
    """The checksums of one file, by its file_id."""

    @extend_schema(
        operation_id="compat_file_checksum_by_id",
        tags=["mariadb.org compatible"],
        responses=CHECKSUM_RESPONSES,
    )
    def get(self, request, file_ref):
        return super().get(request, str(file_ref))


class DownloadAPI(PublicAPIView):
    """Redirects to the file on the chosen mirror (?mirror=<mirror_id>, else the first)."""

    @extend_schema(
        operation_id="compat_file_download",
        tags=["mariadb.org compatible"],
        parameters=[
            OpenApiParameter("mirror", str, description="A mirror_id from /rest-api/mirrors/.")
        ],
        responses={
            302: OpenApiResponse(description="To the file on the mirror"),
            400: ERROR,
            404: ERROR,
            503: OpenApiResponse(
                ERROR.response, description="No mirror is usable right now (with Retry-After)"
            ),
        },
    )
    def get(self, request, release_id, file_ref):
        response = download_redirect(request, release_id, file_ref)
        if response is not None:
            return response
        if downloads.file_place(release_id, file_ref) is None:
            return Response({"error": "No such file."}, status=404)
        if not downloads.usable_mirrors(None):
            # Nothing the client asked for is wrong: every mirror failed its health check.
            response = Response(
                {"error": "No mirror is answering right now; try again later."}, status=503
            )
            response["Retry-After"] = str(NO_MIRROR_RETRY_AFTER_SECONDS)
            patch_cache_control(response, no_store=True)
            return response
        return Response({"error": "No such usable mirror; see /rest-api/mirrors/."}, status=400)


def download_redirect(request, release_id, file_ref):
    """The redirect to the file on the chosen mirror (?mirror=, else the closest usable
    one), counted when it is a GET; None when the file or the mirror asked for is not there. Also answers
    anonymous requests before the middleware stack (core.edge.answer_early)."""
    place = downloads.file_place(release_id, file_ref)
    if place is None:
        return None
    wanted = request.GET.get("mirror")
    # The visitor's country first (the address is only looked up, never kept).
    mirrors = downloads.usable_mirrors(country_of(client_address(request)))
    mirror = mirroring.choose_mirror(mirrors, wanted)
    if mirror is None or (wanted and mirror.mirror_id != wanted):
        return None
    # Link checkers and `curl -I` ask with HEAD: they get the same answer, uncounted.
    if request.method == "GET":
        downloads.record_download(place)
    response = HttpResponseRedirect(mirror.base_url + place.path)
    patch_cache_control(response, no_store=True)  # each download is counted
    return response


def early_download(request, match):
    return download_redirect(request, **match.kwargs)


class MirrorsAPI(PublicAPIView):
    """The active mirrors, grouped by country (ISO 3166 code)."""

    @extend_schema(
        operation_id="compat_mirrors",
        tags=["mariadb.org compatible"],
        responses=inline_serializer(
            "CompatMirrors", {"mirror_list": serializers.DictField(child=MirrorShape(many=True))}
        ),
    )
    def get(self, request):
        grouped = {}
        for mirror in Mirror.objects.usable().order_by("country", "name"):
            grouped.setdefault(mirror.country, []).append(
                {
                    "mirror_id": mirror.mirror_id,
                    "mirror_name": mirror.name,
                    "mirror_url": mirror.base_url,
                    "country": mirror.country,
                }
            )
        return Response({"mirror_list": grouped})


def not_found(request, rest=""):
    """Anything else under /rest-api/ or /api/releases/: a JSON 404, as API clients expect
    (after the redirect APPEND_SLASH would have made, e.g. /rest-api/mariadb)."""
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else "")
            )
    return JsonResponse({"error": "No such path; see /api/docs/."}, status=404)
