from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

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


@require_GET
def repo_config_api(request):
    """GET /api/repo-config: the exact file, as text/plain; 400 with a reason otherwise."""
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
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_GET
def options_api(request):
    response = JsonResponse(services.options())
    patch_cache_control(response, public=True, max_age=300)
    return response
