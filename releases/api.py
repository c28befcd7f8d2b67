"""The release API: GET /api/releases/, /api/releases/<series>/ and .../latest (JSON, OpenAPI)."""

from django.db.models import Prefetch
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from releases.models import Release, ReleaseFile, Series

conditional = decorator_from_middleware(ConditionalGetMiddleware)
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


def published_releases():
    return Release.objects.published().by_version().prefetch_related("files")


@method_decorator(cacheable, name="get")
class SeriesListAPI(APIView):
    """Every series with its status, support type, end-of-life date and releases."""

    @extend_schema(responses=SeriesSerializer(many=True))
    def get(self, request):
        series = Series.objects.prefetch_related(
            Prefetch("releases", queryset=Release.objects.published().by_version())
        )
        ordered = sorted(series, key=lambda s: s.sort_key, reverse=True)
        return Response(SeriesSerializer(ordered, many=True, context={"request": request}).data)


@method_decorator(cacheable, name="get")
class SeriesDetailAPI(APIView):
    """One series with its releases, their files and checksums."""

    @extend_schema(responses=SeriesDetailSerializer)
    def get(self, request, series):
        obj = get_object_or_404(
            Series.objects.prefetch_related(Prefetch("releases", queryset=published_releases())),
            version=series,
        )
        return Response(SeriesDetailSerializer(obj, context={"request": request}).data)


@method_decorator(cacheable, name="get")
class LatestReleaseAPI(APIView):
    """The latest published release of a series (highest version number)."""

    @extend_schema(responses=ReleaseSerializer)
    def get(self, request, series):
        release = (
            published_releases().filter(series__version=series).select_related("series").first()
        )
        if release is None:
            return Response({"detail": f"No published release in series {series}."}, status=404)
        return Response(ReleaseSerializer(release, context={"request": request}).data)
