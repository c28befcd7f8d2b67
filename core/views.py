from datetime import timedelta
from typing import Any

import redis
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control, never_cache
from django.views.generic import TemplateView

from core import navigation
from core.cache import known_down
from core.forms import ProfileForm
from core.hostile import wants_plain_text
from core.models import Profile

SECURITY_TXT_VALIDITY = timedelta(days=180)


class HomeView(TemplateView):
    """The introduction, then what each app registers for the home page (core.navigation)."""

    template_name = "core/home.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(
            home_actions=navigation.home_actions(),
            home_highlights=navigation.home_highlights(),
            **kwargs,
        )


class AccessibilityView(TemplateView):
    template_name = "core/accessibility.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(contact_url=navigation.contact_url(), **kwargs)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The signed-in user's public profile: the display name shown with their comments."""
    instance = Profile.objects.filter(user=request.user).first() or Profile(user=request.user)  # type: ignore[misc]  # signed in
    form = ProfileForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your display name is saved.")
        return redirect("profile")
    return render(request, "core/profile.html", {"form": form}, status=400 if form.errors else 200)


def _database_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def _redis_up(url: str, timeout: float) -> bool:
    if known_down(url):  # the cache failed on it moments ago: no second wait
        return False
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError):
        return False


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 while the database answers (the site can serve), 503 otherwise; every
    component is named, so a degraded Redis shows without failing the health check."""
    components = {"database": "up" if _database_up() else "down"}
    if settings.REDIS_URL:
        up = _redis_up(settings.REDIS_URL, settings.CACHE_REDIS_TIMEOUT)
        components["redis"] = "up" if up else "down"
    broker = settings.CELERY_BROKER_URL
    if broker.startswith(("redis://", "rediss://")) and broker != settings.REDIS_URL:
        up = _redis_up(broker, settings.CELERY_BROKER_TIMEOUT)
        components["broker"] = "up" if up else "down"
    if components["database"] == "down":
        status, code = "unavailable", 503
    elif "down" in components.values():
        status, code = "degraded", 200
    else:
        status, code = "ok", 200
    return JsonResponse({"status": status, **components}, status=code)


# The site's django-ratelimit rates count per minute: a refused client may try again
# within this many seconds.
RATE_LIMIT_RETRY_AFTER = 60


def rate_limited(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Shown by django-ratelimit when a client posts too often."""
    if wants_plain_text(request):
        response = HttpResponse(
            "Too many requests: please wait a minute and try again.\n",
            status=429,
            content_type="text/plain",
        )
    else:
        response = render(request, "429.html", status=429)
    response["Retry-After"] = str(RATE_LIMIT_RETRY_AFTER)
    return response


@cache_control(public=True, max_age=3600)
def robots_txt(request: HttpRequest) -> HttpResponse:
    sitemap = settings.SITE_URL.rstrip("/") + reverse("sitemap")
    lines = ["User-agent: *", "Disallow: /admin/", "Disallow: /accounts/", f"Sitemap: {sitemap}"]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@cache_control(public=True, max_age=3600)
def security_txt(request: HttpRequest) -> HttpResponse:
    """RFC 9116; Expires moves with the calendar, so the file never goes stale."""
    site = settings.SITE_URL.rstrip("/")
    expires = (timezone.now() + SECURITY_TXT_VALIDITY).replace(microsecond=0)
    lines = [
        f"Contact: {settings.SECURITY_CONTACT}",
        f"Expires: {expires.strftime('%Y-%m-%dT%H:%M:%SZ')}",
        "Preferred-Languages: en",
        f"Canonical: {site}/.well-known/security.txt",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
