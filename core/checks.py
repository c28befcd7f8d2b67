"""Deployment checks of the core app (``manage.py check --deploy``)."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

from core.secrets import refused_secrets, registered, setting_names

# Backends that never deliver: mail (with its password-reset and confirmation links)
# would end up in the logs or in memory instead of reaching people.
UNDELIVERED_MAIL_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
}


@register(Tags.security, deploy=True)
def check_mail_is_delivered(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    if settings.PRODUCTION and settings.EMAIL_BACKEND in UNDELIVERED_MAIL_BACKENDS:
        return [
            Error(
                f"EMAIL_BACKEND is {settings.EMAIL_BACKEND} under the production profile: "
                "mail would not be delivered, and the console backend writes "
                "password-reset keys into the logs.",
                hint="Set EMAIL_URL, e.g. smtp+tls://user:password@smtp.example.org:587.",
                id="core.E001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_site_url_is_public(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    if settings.PRODUCTION and not settings.SITE_URL.startswith("https://"):
        return [
            Error(
                f"SITE_URL is {settings.SITE_URL!r}: the production profile needs the "
                "public https:// address (feeds, mails and the sitemap use it).",
                id="core.E002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_secrets_are_real(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    """The settings module already refuses to start; this catches values set later."""
    if not settings.PRODUCTION:
        return []
    values = {name: getattr(settings, name, "") for name in setting_names(registered())}
    problems = refused_secrets(values)
    return [Error(problem, id="core.E003") for problem in problems]


@register(Tags.security, deploy=True)
def check_private_uploads_are_not_served(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    private = Path(str(settings.PRIVATE_MEDIA_ROOT)).resolve()
    public = Path(str(settings.MEDIA_ROOT)).resolve()
    if private == public or public in private.parents:
        return [
            Error(
                f"PRIVATE_MEDIA_ROOT ({private}) lies inside MEDIA_ROOT ({public}), which the "
                "web server hands to anyone: draft benchmark files would be public.",
                hint="Give PRIVATE_MEDIA_ROOT a folder of its own, e.g. /var/lib/portal/private.",
                id="core.E004",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_object_storage_buckets(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    """FILE_STORAGE=object needs both buckets, and two different ones: private files in the
    public bucket would be readable by anyone."""
    if settings.FILE_STORAGE != "object":
        return []
    public, private = settings.OBJECT_STORAGE_PUBLIC_BUCKET, settings.OBJECT_STORAGE_PRIVATE_BUCKET
    if not public or not private:
        return [
            Error(
                "FILE_STORAGE is object but OBJECT_STORAGE_PUBLIC_BUCKET or "
                "OBJECT_STORAGE_PRIVATE_BUCKET is empty.",
                hint="Name both buckets (docs/SCALING.md).",
                id="core.E005",
            )
        ]
    if public == private:
        return [
            Error(
                f"OBJECT_STORAGE_PUBLIC_BUCKET and OBJECT_STORAGE_PRIVATE_BUCKET are both "
                f"{public!r}: private files would be as readable as the public ones.",
                hint="Give private files a bucket of their own, with no public access.",
                id="core.E006",
            )
        ]
    return []
