"""Mirrors: choosing one for a download, and their health, checked over HTTP."""

from datetime import UTC, datetime, time

from django.conf import settings
from django.utils import timezone

from releases.archive import ArchiveError, HttpArchive
from releases.models import Release
from releases.repoconfig.models import Mirror


def mirrors_with(release: Release, mirrors) -> list[tuple]:
    """(mirror, has the release's directory or None when it did not answer) per mirror."""
    found = []
    for mirror in mirrors:
        try:
            listing = HttpArchive(mirror.base_url).list_dir(f"mariadb-{release.version}/")
            found.append((mirror, listing is not None))
        except ArchiveError:
            found.append((mirror, None))
    return found


def choose_mirror(mirrors, wanted=None, country=None):
    """The mirror to use among ``mirrors`` (usable ones, ordered by
    ``Mirror.objects.for_country(country)``): the one asked for, else the first."""
    asked = next((m for m in mirrors if wanted and m.mirror_id == wanted), None)
    return asked or next(iter(mirrors), None)


def newest_release():
    return (
        Release.objects.published()
        .order_by("-release_date", "-version_major", "-version_minor", "-version_patch")
        .first()
    )


def check_mirror(mirror, release, now, session=None):
    """Ask the mirror for its top directory and the newest release's directory; record
    whether it answered, whether it has the release, and how late it is."""
    archive = HttpArchive(mirror.base_url, session=session)
    mirror.checked_at = now
    try:
        top = archive.list_dir("")
        has_release = (
            release is not None and archive.list_dir(f"mariadb-{release.version}/") is not None
        )
    except ArchiveError as error:
        mirror.healthy, mirror.fresh, mirror.check_error = False, None, str(error)[:200]
        mirror.save()
        return mirror
    mirror.healthy = top is not None
    mirror.check_error = "" if top is not None else "the base URL answers 404"
    if release is None or has_release:
        mirror.fresh, mirror.hours_late = True, 0
        mirror.newest_release_seen = release.version if release else ""
    else:
        published = datetime.combine(release.release_date, time(0, 0), tzinfo=UTC)
        late = max(0, int((now - published).total_seconds() // 3600))
        mirror.hours_late = late
        mirror.fresh = late < settings.MIRROR_FRESHNESS_HOURS
    mirror.save()
    return mirror


def check_mirrors(now=None):
    now = now or timezone.now()
    release = newest_release()
    return [check_mirror(mirror, release, now) for mirror in Mirror.objects.filter(active=True)]
