"""POST /api/benchmarks/<slug>/runs/: scripts upload raw output with a per-user token."""

import json

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks import services
from benchmarks.importers import IMPORTERS, ImportFailed
from benchmarks.models import Suite


class RunUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    label = serializers.CharField(max_length=120)
    importer = serializers.ChoiceField(choices=["", *IMPORTERS], required=False, default="")
    parameters = serializers.JSONField(required=False, default=dict)
    variant = serializers.JSONField(required=False, default=dict)
    hardware = serializers.CharField(required=False, allow_blank=True, default="")
    os = serializers.CharField(required=False, allow_blank=True, default="")
    server_version = serializers.CharField(required=False, allow_blank=True, default="")
    server_config = serializers.CharField(required=False, allow_blank=True, default="")
    client = serializers.CharField(required=False, allow_blank=True, default="")
    run_date = serializers.DateField(required=False, allow_null=True, default=None)
    notes = serializers.CharField(required=False, allow_blank=True, default="")

    def validate_file(self, value):
        if value.size > 5 * 1024 * 1024:
            raise serializers.ValidationError("The file is larger than 5 MiB.")
        return value


class RunUploadAPI(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAdminUser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request=RunUploadSerializer, responses={201: dict, 400: dict})
    def post(self, request, slug):
        suite = Suite.objects.filter(slug=slug).first()
        if suite is None:
            return Response({"error": f"no suite {slug!r}"}, status=status.HTTP_404_NOT_FOUND)
        serializer = RunUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        upload = data.pop("file")
        for key in ("parameters", "variant"):
            if isinstance(data[key], str):
                data[key] = json.loads(data[key] or "{}")
        try:
            run = services.import_run(
                suite=suite, raw=upload.read(), file_name=upload.name, user=request.user, **data
            )
        except ImportFailed as error:
            return Response({"error": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {
                "run": run.pk,
                "url": request.build_absolute_uri(run.get_absolute_url()),
                "measurements": run.measurements.count(),
            },
            status=status.HTTP_201_CREATED,
        )
