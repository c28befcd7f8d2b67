from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.generic import TemplateView


class HomeView(TemplateView):
    template_name = "core/home.html"


class AccessibilityView(TemplateView):
    template_name = "core/accessibility.html"


@never_cache
def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "down"}, status=503)
    return JsonResponse({"status": "ok", "database": "up"})


def rate_limited(request, exception=None):
    """Shown by django-ratelimit when a client posts too often."""
    if request.path.startswith("/api/") or not request.accepts("text/html"):
        return HttpResponse(
            "Too many requests: please wait a minute and try again.\n",
            status=429,
            content_type="text/plain",
        )
    return render(request, "429.html", status=429)
