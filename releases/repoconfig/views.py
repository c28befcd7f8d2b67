from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from releases.repoconfig import services

PARAMS = ["distro", "release", "version", "mirror", "arch", "format"]


def _choice(request):
    return {name: request.GET.get(name, "").strip() for name in PARAMS}


@require_GET
def generator(request):
    """The form (plain GET, works without JavaScript) and, once complete, the result."""
    choice = _choice(request)
    options = services.options()
    context = {"choice": choice, "options": options, "result": None, "error": ""}
    context.update(services.form_choices(options))
    if all(choice[name] for name in ["distro", "release", "version", "mirror"]):
        try:
            context["result"] = services.generate(
                distro=choice["distro"],
                release=choice["release"],
                version=choice["version"],
                mirror=choice["mirror"],
                arch=choice["arch"],
                fmt=choice["format"],
            )
        except services.UnsupportedChoice as error:
            context["error"] = str(error)
    status = 400 if context["error"] else 200
    return render(request, "repoconfig/generator.html", context, status=status)


def _param(name, description, required=False, enum=None, pattern=None):
    return OpenApiParameter(
        name,
        str,
        required=required,
        enum=enum,
        pattern=pattern,
        allow_blank=not required,
        description=description,
    )


DISTROS = [
    "debian",
    "ubuntu",
    "mint",
    "rhel",
    "rocky",
    "almalinux",
    "centos",
    "fedora",
    "opensuse",
    "sles",
]


@extend_schema(
    tags=["repo-config"],
    parameters=[
        _param("distro", "The distribution", True, enum=DISTROS),
        _param(
            "release",
            "The distribution release: a codename (bookworm, noble) or version (9, 15.6)",
            True,
            pattern=r"^[a-z0-9.]{1,20}$",
        ),
        _param(
            "version", "The MariaDB series, e.g. 11.4", True, pattern=r"^[0-9]{1,2}\.[0-9]{1,2}$"
        ),
        _param(
            "mirror",
            "A usable mirror id from /api/repo-config/options, e.g. osuosl",
            True,
            pattern=r"^[a-z0-9-]{1,40}$",
        ),
        _param(
            "arch",
            "Optional: amd64/x86_64 or arm64/aarch64",
            enum=["amd64", "x86_64", "arm64", "aarch64"],
        ),
        _param(
            "format",
            "APT only: deb822 (default) or list; rpm families: repo",
            enum=["deb822", "list", "repo"],
        ),
        _param("download", "Any value: add a Content-Disposition with the file name"),
    ],
    responses={
        (200, "text/plain"): OpenApiResponse(
            OpenApiTypes.STR, description="The file exactly as saved"
        ),
        (400, "text/plain"): OpenApiResponse(
            OpenApiTypes.STR,
            description="One line: why not (also for a combination that does not exist, e.g. a series not built for that release, or a mirror that failed its last health check, naming the usable ones)",
        ),
    },
)
@require_GET
def repo_config_api(request):
    """GET /api/repo-config: the exact file, as text/plain; 400 with a reason otherwise.
    Cache headers come from shared_response (releases/repoconfig/urls.py)."""
    choice = _choice(request)
    try:
        generated = services.generate(
            distro=choice["distro"],
            release=choice["release"],
            version=choice["version"],
            mirror=choice["mirror"],
            arch=choice["arch"],
            fmt=choice["format"],
        )
    except services.UnsupportedChoice as error:
        return HttpResponse(f"{error}\n", status=400, content_type="text/plain; charset=utf-8")
    response = HttpResponse(generated.config.content, content_type="text/plain; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{generated.config.filename}"'
    return response


@extend_schema(
    tags=["repo-config"],
    responses={
        200: OpenApiResponse(
            OpenApiTypes.OBJECT,
            description="Every valid choice: distributions with their releases, series per release with architectures and end-of-life flags, active mirrors (usable ones first; each says whether it is usable and, if not, why)",
        )
    },
)
@require_GET
def options_api(request):
    return JsonResponse(services.options())
