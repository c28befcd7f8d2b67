"""POST /api/benchmarks/<slug>/runs/: scripts upload raw output with a per-user token."""

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
    parameters = serializers.CharField(required=False, allow_blank=True, default="{}")
    variant = serializers.CharField(required=False, allow_blank=True, default="{}")
    hardware = serializers.CharField(required=False, allow_blank=True, default="")
    os = serializers.CharField(required=False, allow_blank=True, default="")
    server_version = serializers.CharField(required=False, allow_blank=True, default="")
    server_config = serializers.CharField(required=False, allow_blank=True, default="")
    client = serializers.CharField(required=False, allow_blank=True, default="")
    run_date = serializers.DateField(required=False, allow_null=True, default=None)
    notes = serializers.CharField(required=False, allow_blank=True, default="")

    def validate_file(self, value):
        if value.size > services.MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(services.SIZE_MESSAGE)
        return value

    def _tags(self, name, value):
        try:
            return services.check_tags(name, value)
        except ImportFailed as error:
            # The response names the field already: "parameters: expected a JSON object…"
            raise serializers.ValidationError(str(error).removeprefix(f"{name}: ")) from error

    def validate_parameters(self, value):
        return self._tags("parameters", value)

    def validate_variant(self, value):
        return self._tags("variant", value)


class RunUploadAPI(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAdminUser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request=RunUploadSerializer, responses={201: dict, 400: dict, 404: dict, 413: dict}
    )
    def post(self, request, slug):
        suite = Suite.objects.filter(slug=slug).first()
        if suite is None:
            return Response({"error": f"no suite {slug!r}"}, status=status.HTTP_404_NOT_FOUND)
        if services.declared_size_too_large(request):
            return Response(
                {"error": services.SIZE_MESSAGE}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
            )
        serializer = RunUploadSerializer(data=request.data)
        if not serializer.is_valid():
            errors = serializer.errors
            message = "; ".join(
                f"{field}: {' '.join(map(str, problems))}" for field, problems in errors.items()
            )
            return Response(
                {"error": message, "fields": errors}, status=status.HTTP_400_BAD_REQUEST
            )
        data = dict(serializer.validated_data)
        upload = data.pop("file")
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
