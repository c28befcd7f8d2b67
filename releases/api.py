"""The release API: GET /api/releases/, /api/releases/<series>/, .../latest/ and
/api/releases/<series>/<version>/ (JSON, OpenAPI); files filter by ?os=&arch=&package=
(django-filter, documented by drf-spectacular). Caching: releases/urls.py wraps every
view in core.pagecache.shared_response."""

from django.conf import settings
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from releases.forms import NewReleaseForm, ReleaseFileFilter
from releases.models import Release, ReleaseFile, Series
from releases.services import publishing


class PublicAPIView(APIView):
    """Read-only and anonymous: no session or token is looked at."""

    authentication_classes = []


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
    files_pending = serializers.BooleanField(
        read_only=True,
        help_text="True while the files of a release published without them are on their way; "
        "files is empty until they are recorded.",
    )
    files_note = serializers.SerializerMethodField()

    class Meta:
        model = Release
        fields = [
            "version",
            "series",
            "maturity",
            "release_date",
            "url",
            "files",
            "files_pending",
            "files_note",
        ]

    def get_files_note(self, release) -> str | None:
        """Says that the files are on their way, or null."""
        return release.files_note or None

    def get_url(self, release) -> str:
        return self.context["request"].build_absolute_uri(release.get_absolute_url())


class ReleaseSummarySerializer(serializers.ModelSerializer):
    files_pending = serializers.BooleanField(
        read_only=True, help_text="True while the files of this release are on their way."
    )

    class Meta:
        model = Release
        fields = ["version", "maturity", "release_date", "files_pending"]


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


class FileFilterSchema(AutoSchema):
    """Documents the file filters on single-object answers too (spectacular only does
    so for lists by default)."""

    def get_filter_backends(self):
        return getattr(self.view, "filter_backends", [])


class FilteredFilesAPIView(GenericAPIView):
    """Read-only and anonymous; ``self.files()`` are the files the query asks for."""

    authentication_classes = []
    queryset = ReleaseFile.objects.all()
    filter_backends = [DjangoFilterBackend]
    filterset_class = ReleaseFileFilter
    schema = FileFilterSchema()

    def files(self):
        return self.filter_queryset(self.get_queryset())

    def handle_exception(self, exc):
        """A bad filter value: 400 {"error": "os: reason"}, as this API has always said."""
        if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
            reasons = "; ".join(
                f"{name}: {' '.join(str(e) for e in errors)}" for name, errors in exc.detail.items()
            )
            return Response({"error": reasons}, status=400)
        return super().handle_exception(exc)


ERRORS = {
    400: OpenApiResponse(
        inline_serializer("ReleaseAPIError", {"error": serializers.CharField()}),
        description="A parameter is not valid; the reason says which.",
    ),
    404: OpenApiResponse(description="No such series or release"),
}


def published_releases(files=None):
    files = ReleaseFile.objects.all() if files is None else files
    return (
        Release.objects.published().by_version().prefetch_related(Prefetch("files", queryset=files))
    )


class SeriesListAPI(PublicAPIView):
    """Every series with its status, support type, end-of-life date and releases."""

    @extend_schema(tags=["releases"], responses=SeriesSerializer(many=True))
    def get(self, request):
        series = Series.objects.prefetch_related(
            Prefetch("releases", queryset=Release.objects.published().by_version())
        )
        ordered = sorted(series, key=lambda s: s.sort_key, reverse=True)
        return Response(SeriesSerializer(ordered, many=True, context={"request": request}).data)


class SeriesDetailAPI(FilteredFilesAPIView):
    """One series with its releases, their files and checksums."""

    @extend_schema(
        tags=["releases"],
        responses={200: SeriesDetailSerializer, **ERRORS},
    )
    def get(self, request, series):
        files = self.files()
        obj = get_object_or_404(
            Series.objects.prefetch_related(
                Prefetch("releases", queryset=published_releases(files))
            ),
            version=series,
        )
        return Response(SeriesDetailSerializer(obj, context={"request": request}).data)


class LatestReleaseAPI(FilteredFilesAPIView):
    """The latest release of a series that scripts can download: the highest version that
    has files (a release whose files are on their way is listed in the series, never here)."""

    @extend_schema(
        tags=["releases"],
        responses={200: ReleaseSerializer, **ERRORS},
    )
    def get(self, request, series):
        files = self.files()
        newest = Release.objects.latest_in(series)
        release = (
            published_releases(files).filter(pk=newest.pk).select_related("series").first()
            if newest
            else None
        )
        if release is None:
            return Response({"detail": f"No published release in series {series}."}, status=404)
        return Response(ReleaseSerializer(release, context={"request": request}).data)


class ReleaseDetailAPI(FilteredFilesAPIView):
    """One published release with its files and checksums."""

    @extend_schema(
        tags=["releases"],
        operation_id="api_release_detail",
        responses={200: ReleaseSerializer, **ERRORS},
    )
    def get(self, request, series, version):
        files = self.files()
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
        request=inline_serializer(
            "ReleaseDraft",
            {
                "version": serializers.CharField(),
                "release_date": serializers.DateField(),
                "maturity": serializers.ChoiceField(choices=Release.Maturity.values),
            },
        ),
        responses={201: dict, 400: dict, 403: dict},
    )
    def post(self, request):
        if not (
            request.user.has_perm("releases.add_release")
            and request.user.has_perm("releases.change_release")
        ):
            return Response({"error": "This token may not add releases."}, status=403)
        form = NewReleaseForm(request.data)
        if not form.is_valid():
            reasons = "; ".join(
                f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()
            )
            return Response({"error": reasons}, status=400)
        release, report, error = publishing.prepare_release(
            **form.cleaned_data, archive_location=settings.RELEASE_ARCHIVE_LOCATION
        )
        return Response(
            {
                "version": release.version,
                "published": False,
                "files": release.files.count(),
                "problems": report.problems if report else [],
                "archive_error": error or None,
                "review_url": request.build_absolute_uri(
                    reverse("admin:releases_release_review", args=[release.pk])
                ),
            },
            status=201,
        )
