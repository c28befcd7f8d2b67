from typing import Any

from django.conf import settings
from django.http import HttpRequest

from core import navigation


def site(request: HttpRequest) -> dict[str, Any]:
    return site_context(request.path)


def site_context(path: str) -> dict[str, Any]:
    """The site-wide template context; needs no request or database (the 503 page uses it)."""
    return {
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "navigation": navigation.menu(path),
        "account_links": navigation.account_links(),
        "footer_sections": navigation.footer_sections(),
        "includes": navigation.includes(),
    }
