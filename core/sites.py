"""The Sites framework's current site follows SITE_URL and SITE_NAME.

Django's feeds, sitemaps and the admin's "View on site", and allauth's mails, build
absolute URLs from ``Site.objects.get_current()``. Migrations create it as
``example.com``; after every ``migrate`` (each deployment runs one) it is set from the
settings, so nothing a visitor sees can carry the placeholder.
"""

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sites.models import Site


def site_domain() -> str:
    return urlsplit(str(settings.SITE_URL)).netloc


def sync_current_site(**kwargs: Any) -> None:
    domain, name = site_domain(), settings.SITE_NAME
    site, created = Site.objects.get_or_create(
        pk=settings.SITE_ID, defaults={"domain": domain, "name": name}
    )
    if not created and (site.domain, site.name) != (domain, name):
        site.domain, site.name = domain, name
        site.save(update_fields=["domain", "name"])
    Site.objects.clear_cache()
