"""The release API: GET /api/releases/, /api/releases/<series>/, .../latest and
/api/releases/<series>/<version>/ (JSON, OpenAPI); files filter by ?os=&arch=&package=."""

from django.conf import settings
from django.db.models import Prefetch
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from releases import services
from releases.forms import NewReleaseForm
from releases.models import Release, ReleaseFile, Series

conditional = decorator_from_middleware(ConditionalGetMiddleware)


class PublicAPIView(APIView):
    """Read-only and anonymous: no session or token is looked at."""

    authentication_classes = []


cacheable = [cache_control(public=True, max_age=300), conditional]


class ReleaseFileSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReleaseFile
        fields = [
            "file_name",
            "os",
            "architecture",
            "package_type",
            "path",
            "size",
            "sha256",
            "sha512",
            "signature_path",
        ]


class ReleaseSerializer(serializers.ModelSerializer):
    series = serializers.CharField(source="series.version")
    files = ReleaseFileSerializer(many=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Release
        fields = ["version", "series", "maturity", "release_date", "url", "files"]

    def get_url(self, release) -> str:
        return self.context["request"].build_absolute_uri(release.get_absolute_url())


class ReleaseSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Release
        fields = ["version", "maturity", "release_date"]


class SeriesSerializer(serializers.ModelSerializer):
    releases = ReleaseSummarySerializer(many=True)

    class Meta:
        model = Series
        fields = [
            "version",
            "name",
            "status",
            "support_type",
            "first_release_date",
            "eol_date",
            "releases",
        ]


class SeriesDetailSerializer(SeriesSerializer):
    releases = ReleaseSerializer(many=True)


ARCHITECTURE_ALIASES = {"amd64": "x86_64", "arm64": "aarch64"}
ARCHITECTURES = ["x86_64", "amd64", "aarch64", "arm64", "ppc64le", "s390x", "i686"]


class FileFilterSerializer(serializers.Serializer):
    os = serializers.ChoiceField(choices=ReleaseFile.OS.values, required=False)
    arch = serializers.ChoiceField(choices=ARCHITECTURES, required=False)
    package = serializers.ChoiceField(choices=ReleaseFile.PackageType.values, required=False)


FILTER_PARAMETERS = [
    OpenApiParameter("os", str, enum=ReleaseFile.OS.values, description="Only files for this OS."),
    OpenApiParameter("arch", str, enum=ARCHITECTURES, description="Only files for this architecture (amd64 means x86_64, arm64 aarch64)."),
    OpenApiParameter("package", str, enum=ReleaseFile.PackageType.values, description="Only this package type."),
]  # fmt: skip
ERRORS = {
    400: OpenApiResponse(inline_serializer("ReleaseAPIError", {"error": serializers.CharField()}),
                         description="A parameter is not valid; the reason says which."),
    404: OpenApiResponse(description="No such series or release"),
}  # fmt: skip


class BadFilter(Exception):
    def __init__(self, response):
        self.response = response


def file_queryset(request):
    """Files matching ?os=&arch=&package=, or BadFilter carrying a 400 with the reason."""
    params = FileFilterSerializer(data=request.query_params)
    if not params.is_valid():
        reasons = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in params.errors.items())
        raise BadFilter(Response({"error": reasons}, status=400))
    wanted = dict(params.validated_data)
    files = ReleaseFile.objects.all()
    if "os" in wanted:
        files = files.filter(os=wanted["os"])
    if "arch" in wanted:
        files = files.filter(architecture=ARCHITECTURE_ALIASES.get(wanted["arch"], wanted["arch"]))
    if "package" in wanted:
        files = files.filter(package_type=wanted["package"])
    return files


def published_releases(files=None):
    files = ReleaseFile.objects.all() if files is None else files
    return (
        Release.objects.published().by_version().prefetch_related(Prefetch("files", queryset=files))
    )


@method_decorator(cacheable, name="get")
class SeriesListAPI(PublicAPIView):
    """Every series with its status, support type, end-of-life date and releases."""

    @extend_schema(tags=["releases"], responses=SeriesSerializer(many=True))
    def get(self, request):
        series = Series.objects.prefetch_related(
            Prefetch("releases", queryset=Release.objects.published().by_version())
        )
        ordered = sorted(series, key=lambda s: s.sort_key, reverse=True)
        return Response(SeriesSerializer(ordered, many=True, context={"request": request}).data)


@method_decorator(cacheable, name="get")
class SeriesDetailAPI(PublicAPIView):
    """One series with its releases, their files and checksums."""

    @extend_schema(
        tags=["releases"],
        responses={200: SeriesDetailSerializer, **ERRORS},
        parameters=FILTER_PARAMETERS,
    )
    def get(self, request, series):
        try:
            files = file_queryset(request)
        except BadFilter as bad:
            return bad.response
        obj = get_object_or_404(
            Series.objects.prefetch_related(
                Prefetch("releases", queryset=published_releases(files))
            ),
            version=series,
        )
        return Response(SeriesDetailSerializer(obj, context={"request": request}).data)


@method_decorator(cacheable, name="get")
class LatestReleaseAPI(PublicAPIView):
    """The latest published release of a series (highest version number)."""

    @extend_schema(
        tags=["releases"],
        responses={200: ReleaseSerializer, **ERRORS},
        parameters=FILTER_PARAMETERS,
    )
    def get(self, request, series):
        try:
            files = file_queryset(request)
        except BadFilter as bad:
            return bad.response
        release = (
            published_releases(files)
            .filter(series__version=series)
            .select_related("series")
            .first()
        )
        if release is None:
            return Response({"detail": f"No published release in series {series}."}, status=404)
        return Response(ReleaseSerializer(release, context={"request": request}).data)


@method_decorator(cacheable, name="get")
class ReleaseDetailAPI(PublicAPIView):
    """One published release with its files and checksums."""

    @extend_schema(tags=["releases"], operation_id="api_release_detail", responses={200: ReleaseSerializer, **ERRORS},
                   parameters=FILTER_PARAMETERS)  # fmt: skip
    def get(self, request, series, version):
        try:
            files = file_queryset(request)
        except BadFilter as bad:
            return bad.response
        release = (
            published_releases(files)
            .filter(series__version=series, version=version)
            .select_related("series")
            .first()
        )
        if release is None:
            return Response(
                {"detail": f"No published release {version[:40]} in series {series[:40]}."},
                status=404,
            )
        return Response(ReleaseSerializer(release, context={"request": request}).data)


class ReleaseDraftAPI(APIView):
    """POST /api/releases/drafts/: the build system announces a release (version, date,
    maturity) with a staff token; it is kept unpublished, its files are read from the
    archive, and staff review and publish it in the admin."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAdminUser]

    @extend_schema(
        tags=["releases"],
        request=inline_serializer("ReleaseDraft", {
            "version": serializers.CharField(), "release_date": serializers.DateField(),
            "maturity": serializers.ChoiceField(choices=Release.Maturity.values)}),
        responses={201: dict, 400: dict, 403: dict},
    )  # fmt: skip
    def post(self, request):
        if not (request.user.has_perm("releases.add_release")
                and request.user.has_perm("releases.change_release")):  # fmt: skip
            return Response({"error": "This token may not add releases."}, status=403)
        form = NewReleaseForm(request.data)
        if not form.is_valid():
            reasons = "; ".join(
                f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()
            )
            return Response({"error": reasons}, status=400)
        release, report, error = services.prepare_release(
            **form.cleaned_data, archive_location=settings.RELEASE_ARCHIVE_LOCATION
        )
        return Response({
            "version": release.version, "published": False,
            "files": release.files.count(), "problems": report.problems if report else [],
            "archive_error": error or None,
            "review_url": request.build_absolute_uri(reverse("admin:releases_release_review", args=[release.pk])),
        }, status=201)  # fmt: skip
