"""POST /api/benchmarks/<slug>/runs/: contributors and CI jobs upload raw output with a
personal token (or their session); staff's older admin-made tokens still work."""

from typing import Any

from django.urls import reverse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    TokenAuthentication,
    get_authorization_header,
)
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.importers import IMPORTERS, ImportFailed
from benchmarks.models import MAY_BE_UNSTATED, Run
from benchmarks.services import importing, limits, permissions, tokens
from core import numbers


class PersonalTokenAuthentication(BaseAuthentication):
    """``Authorization: Token bench_…``: a token a contributor made on their account page.
    Other ``Token`` keys are left to DRF's TokenAuthentication (staff's admin-made tokens)."""

    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if len(words) != 2 or words[0].lower() != b"token":
            return None
        try:
            key = words[1].decode("ascii")
        except UnicodeDecodeError:
            return None
        if not key.startswith(tokens.TOKEN_PREFIX):
            return None
        user = tokens.token_user(key)
        if user is None:
            raise exceptions.AuthenticationFailed("Unknown or revoked token.")
        return user, key

    def authenticate_header(self, request):
        return "Token"


class PersonalTokenScheme(OpenApiAuthenticationExtension):
    """How the API schema (/api/schema/) describes personal tokens."""

    target_class = PersonalTokenAuthentication
    name = "personalToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token bench_…`: a personal token made on /accounts/benchmarks/",
        }


class MaySubmit(BasePermission):
    message = (
        "Submitting runs needs an account with a verified e-mail address: verify yours "
        "on the account's e-mail page."
    )

    def has_permission(self, request, view):
        return permissions.may_submit(request.user)


AUTHENTICATION = [PersonalTokenAuthentication, TokenAuthentication, SessionAuthentication]


def _text(name, **options):
    """A text field bounded as its column is, refusing characters text here may not hold."""

    def storable(value):
        problem = limits.text_problem(value, None)
        if problem:
            raise serializers.ValidationError(problem)

    return serializers.CharField(
        max_length=limits.field_limit(Run, name),  # type: ignore[arg-type]  # DRF takes None: no limit
        validators=[storable],
        trim_whitespace=False,
        **options,
    )


OPTIONAL: dict[str, Any] = {"required": False, "allow_blank": True, "default": ""}


class AsciiDateField(serializers.DateField):
    """YYYY-MM-DD in the digits 0-9 only (DRF's own reads every script's digits)."""

    def to_internal_value(self, value):
        try:
            return numbers.parse_date(value, self.field_name or "date")
        except numbers.NumberRefused as error:
            raise serializers.ValidationError(str(error)) from error


class RunUploadSerializer(serializers.Serializer):
    file = serializers.FileField(max_length=300)
    label = _text("label")
    importer = serializers.ChoiceField(choices=["", *IMPORTERS], required=False, default="")
    parameters = serializers.CharField(max_length=5000, **OPTIONAL)
    variant = serializers.CharField(max_length=5000, **OPTIONAL)
    hardware = _text("hardware", **OPTIONAL)
    os = _text("os", **OPTIONAL)
    server_version = _text("server_version", **OPTIONAL)
    server_commit = _text("server_commit", **OPTIONAL)
    server_config = _text("server_config", **OPTIONAL)
    client = _text("client", **OPTIONAL)
    run_date = AsciiDateField(required=False, allow_null=True, default=None)
    notes = _text("notes", **OPTIONAL)
    source = _text("source", **OPTIONAL)
    source_url = serializers.URLField(
        max_length=limits.field_limit(Run, "source_url"),  # type: ignore[arg-type]  # DRF takes None
        **OPTIONAL,
    )
    unstated = serializers.CharField(
        max_length=200,
        help_text="Comma-separated provenance fields the cited source does not state",
        **OPTIONAL,
    )

    def validate_unstated(self, value):
        names = [name.strip() for name in value.split(",") if name.strip()]
        unknown = [name for name in names if name not in MAY_BE_UNSTATED]
        if unknown:
            raise serializers.ValidationError(
                f"unknown {', '.join(map(repr, unknown))}; choose from {', '.join(MAY_BE_UNSTATED)}"
            )
        return names

    def validate_server_version(self, value):
        if value:
            try:
                numbers.parse_version(value, "server_version")
            except numbers.NumberRefused as error:
                raise serializers.ValidationError(str(error)) from error
        return value

    def validate_label(self, value):
        if not value.strip():
            raise serializers.ValidationError("This field may not be blank.")
        return value

    def validate_file(self, value):
        if value.size > importing.MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(importing.SIZE_MESSAGE)
        return value

    def _tags(self, name, value):
        try:
            return limits.check_tags(name, value)
        except ImportFailed as error:
            # The response names the field already: "parameters: expected a JSON object…"
            raise serializers.ValidationError(str(error).removeprefix(f"{name}: ")) from error

    def validate_parameters(self, value):
        return self._tags("parameters", value)

    def validate_variant(self, value):
        return self._tags("variant", value)


class RunUploadAPI(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [MaySubmit]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request=RunUploadSerializer,
        responses={201: dict, 400: dict, 403: dict, 404: dict, 413: dict, 429: dict},
    )
    def post(self, request, slug):
        suite = permissions.submittable_suite(request.user, slug)
        if suite is None:
            return Response({"error": f"no suite {slug!r}"}, status=status.HTTP_404_NOT_FOUND)
        reviewed = not permissions.may_publish(request.user)
        if (
            reviewed
            and (allowance := permissions.submission_allowance(request.user)).remaining == 0
        ):
            return _over_allowance(importing.over_allowance(allowance, 1))
        if importing.declared_size_too_large(request):
            return Response(
                {"error": importing.SIZE_MESSAGE}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
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
            run = importing.submit_run(
                suite=suite, raw=upload.read(), file_name=upload.name, user=request.user, **data
            )
        except importing.OverAllowance as error:
            return _over_allowance(error)
        except ImportFailed as error:
            return Response({"error": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {**_state(request, run), "measurements": run.measurements.count()},
            status=status.HTTP_201_CREATED,
        )


def _over_allowance(error):
    """429 with Retry-After when waiting helps; 400 when the file holds more runs than the
    limit itself."""
    if error.wait is None:
        return Response({"error": str(error)}, status=status.HTTP_400_BAD_REQUEST)
    return Response(
        {"error": str(error)},
        status=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(error.wait)},
    )


def _state(request, run):
    """What an uploader is told about a run: its state, and why if it was turned down."""
    state = {
        "run": run.pk,
        "status": run.status,
        "status_url": request.build_absolute_uri(
            reverse("benchmarks:upload-status", kwargs={"slug": run.suite.slug, "pk": run.pk})
        ),
    }
    if run.status == Run.Status.PUBLISHED:
        state["url"] = request.build_absolute_uri(run.get_absolute_url())
    elif run.status == Run.Status.REJECTED:
        state["reason"] = run.review_note
    else:
        state["waiting_for"] = "review by the foundation's staff"
        missing = run.missing_provenance()
        if missing:
            state["missing_provenance"] = missing
    return state


class RunStatusAPI(APIView):
    """GET /api/benchmarks/<slug>/runs/<id>/: the uploader (or a reviewer) reads a run's state."""

    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: dict, 404: dict})
    def get(self, request, slug, pk):
        run = Run.objects.select_related("suite").filter(suite__slug=slug, pk=pk).first()
        allowed = run is not None and (
            run.uploaded_by_id == request.user.pk or permissions.may_publish(request.user)
        )
        if not allowed:  # another person's upload is as absent as a missing one
            return Response({"error": "no such upload"}, status=status.HTTP_404_NOT_FOUND)
        return Response(_state(request, run))
