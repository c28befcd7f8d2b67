"""Mirrors: choosing one for a download, and their health, checked over HTTP."""

from dataclasses import dataclass
from datetime import UTC, datetime, time

from django.conf import settings
from django.utils import timezone

from releases.archive import ArchiveError, HttpArchive
from releases.models import Release
from releases.repoconfig.models import Mirror


@dataclass(frozen=True)
class MirrorPresence:
    """Whether a mirror has a release's directory, as the review page says it: asked just
    now, and what the mirror check knows of the mirror when the question got no answer."""

    mirror: Mirror
    has_it: bool | None  # None: no answer to the question just now
    error: str = ""  # why there was no answer (the kind of failure, no address)

    @property
    def sentence(self) -> str:
        if self.has_it:
            return "has it"
        if self.has_it is False:
            return "does not have it yet"
        if self.mirror.checked_at is None:
            return (
                f"not known: this server could not ask it just now ({self.error}), and the "
                "mirror check has never run for it"
            )
        when = timezone.localtime(self.mirror.checked_at).strftime("%-d %B %Y %H:%M")
        health = {True: "answering", False: "not answering", None: "not judged"}
        return (
            f"did not answer just now ({self.error}); the mirror check found it "
            f"{health[self.mirror.healthy]} on {when}"
        )


def mirrors_with(release: Release, mirrors) -> list[MirrorPresence]:
    """Whether each mirror has the release's directory (None where it did not answer)."""
    found = []
    for mirror in mirrors:
        try:
            listing = HttpArchive(mirror.base_url).list_dir(f"mariadb-{release.version}/")
            found.append(MirrorPresence(mirror, listing is not None))
        except ArchiveError as error:
            reason = str(error).rpartition(": ")[2] or "no answer"
            found.append(MirrorPresence(mirror, None, reason))
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
