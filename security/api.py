"""The security API: GET /api/security/ (the advisories, filtered like /security/) and
GET /api/security/affected/?version=<what SELECT VERSION() prints> (JSON, OpenAPI).
Caching: security/urls.py wraps both in core.edge.shared_response."""

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from security.forms import AdvisoryFilter, VersionForm
from security.models import Advisory, Severity
from security.queries import UnknownSeries, check_release


class SeveritySerializer(serializers.Serializer):
    rating = serializers.ChoiceField(choices=Severity.choices)
    cvss_score = serializers.FloatField()
    cvss_vector = serializers.CharField(allow_null=True, help_text="CVSS 3.x base vector, or null.")


def _severity(advisory: Advisory) -> dict:
    return {
        "rating": advisory.rating,
        "cvss_score": float(advisory.cvss_score),
        "cvss_vector": advisory.cvss_vector or None,
    }


class RangeSerializer(serializers.Serializer):
    series = serializers.CharField()
    introduced = serializers.CharField(
        help_text='The first affected release, or "0": from the start of the series.'
    )
    fixed = serializers.CharField(allow_null=True, help_text="The first fixed release, or null.")


class AdvisorySerializer(serializers.Serializer):
    id = serializers.CharField(source="advisory_id")
    aliases = serializers.ListField(child=serializers.CharField())
    published = serializers.DateField()
    summary = serializers.CharField()
    component = serializers.CharField()
    severity = serializers.SerializerMethodField()
    affected = serializers.SerializerMethodField()
    references = serializers.ListField(child=serializers.URLField())
    url = serializers.SerializerMethodField()
    osv = serializers.SerializerMethodField()

    @extend_schema_field(SeveritySerializer)
    def get_severity(self, advisory: Advisory) -> dict[str, object]:
        return _severity(advisory)

    @extend_schema_field(RangeSerializer(many=True))
    def get_affected(self, advisory: Advisory) -> list[dict[str, str | None]]:
        return [
            {
                "series": r.series.version,
                "introduced": r.introduced.version if r.introduced is not None else "0",
                "fixed": r.fixed.version if r.fixed is not None else None,
            }
            for r in sorted(advisory.ranges.all(), key=lambda r: r.series.sort_key, reverse=True)
        ]

    def get_url(self, advisory) -> str:
        return self.context["request"].build_absolute_uri(advisory.get_absolute_url())

    def get_osv(self, advisory) -> str:
        return self.context["request"].build_absolute_uri(
            reverse("security:osv", args=[advisory.advisory_id])
        )


ERROR = OpenApiResponse(
    inline_serializer("SecurityAPIError", {"error": serializers.CharField()}),
    description="A parameter is not valid; the reason says which.",
)


def _reasons(form) -> str:
    return "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())


class AdvisoryListAPI(APIView):
    """Every advisory, newest first, with its severity and affected releases per series."""

    authentication_classes = []

    @extend_schema(
        tags=["security"],
        parameters=[
            OpenApiParameter(
                "series", str, description="Only advisories with a range in this series, e.g. 10.6."
            ),
            OpenApiParameter(
                "severity", str, enum=Severity.values, description="Only this rating."
            ),
            OpenApiParameter("year", int, description="Only advisories published in this year."),
            OpenApiParameter(
                "q", str, description="A CVE id or words of the summary or component."
            ),
        ],
        responses={200: AdvisorySerializer(many=True), 400: ERROR},
    )
    def get(self, request):
        form = AdvisoryFilter.for_data(request.GET)
        if not form.is_valid():
            return Response({"error": _reasons(form)}, status=400)
        advisories = Advisory.objects.with_ranges().newest_first().matching(**form.filters())
        return Response(
            AdvisorySerializer(advisories, many=True, context={"request": request}).data
        )


class FindingSerializer(serializers.Serializer):
    id = serializers.CharField()
    severity = SeveritySerializer()
    summary = serializers.CharField()
    fixed = serializers.CharField(
        allow_null=True, help_text="The first release of this series with the fix, or null."
    )
    url = serializers.URLField()


class UpgradeSerializer(serializers.Serializer):
    version = serializers.CharField()
    series = serializers.CharField()
    same_series = serializers.BooleanField()
    reason = serializers.CharField()
    url = serializers.URLField()


class AffectedSerializer(serializers.Serializer):
    version = serializers.CharField(help_text="The release read from the string, e.g. 10.6.12.")
    series = serializers.CharField()
    known_release = serializers.BooleanField(
        help_text="Whether the release is one this site lists."
    )
    advisories = FindingSerializer(many=True)
    upgrade_to = UpgradeSerializer(allow_null=True)


class AffectedAPI(APIView):
    """The advisories whose ranges include the release a server reports, and the release
    to upgrade to."""

    authentication_classes = []

    @extend_schema(
        tags=["security"],
        parameters=[
            OpenApiParameter(
                "version",
                str,
                required=True,
                description="What the server prints for SELECT VERSION(), e.g. "
                "10.6.12-MariaDB-0ubuntu0.22.04.1-log.",
            )
        ],
        responses={200: AffectedSerializer, 400: ERROR},
    )
    def get(self, request):
        form = VersionForm(request.GET)
        if not form.is_valid():
            return Response({"error": _reasons(form)}, status=400)
        parsed = form.cleaned_data["version"]
        try:
            check = check_release(parsed.major, parsed.minor, parsed.patch, timezone.localdate())
        except UnknownSeries as error:
            return Response({"error": f"version: {error}"}, status=400)
        url = request.build_absolute_uri
        upgrade = check.upgrade
        return Response(
            {
                "version": check.version,
                "series": check.series.version,
                "known_release": check.known_release is not None,
                "advisories": [
                    {
                        "id": r.advisory.advisory_id,
                        "severity": _severity(r.advisory),
                        "summary": r.advisory.summary,
                        "fixed": r.fixed.version if r.fixed is not None else None,
                        "url": url(r.advisory.get_absolute_url()),
                    }
                    for r in check.affecting
                ],
                "upgrade_to": None
                if upgrade.release is None
                else {
                    "version": upgrade.release.version,
                    "series": upgrade.release.series.version,
                    "same_series": upgrade.same_series,
                    "reason": upgrade.reason,
                    "url": url(upgrade.release.get_absolute_url()),
                },
            }
        )
