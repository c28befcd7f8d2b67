"""Downloads by name (GET /rest-api/mariadb/<version>/<file>): where the file is, which
mirrors may serve it, and how many times it was asked for.

Installers and CI pipelines call this redirect all at once on release day, so it costs
no database query while the content is unchanged:

- the file's place (path, release, OS, architecture) and the usable mirrors for a
  country are kept under the page cache's content generation (``core.pagecache``):
  publishing a release, adding a file or a mirror check that changes a mirror's health
  replaces them at once;
- each download adds one to a counter (one per release, OS, architecture and day) that
  the process hands to Redis at most every TALLY_BUFFER_SECONDS and when its worker
  exits (releases.tally); the beat task ``releases.tasks.flush_download_counts``
  moves the Redis counters into ``DownloadCount`` every minute. Counts that find no
  Redis are written to the database at once.
"""

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import quote, unquote

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from core.pagecache import kept_with_content
from releases.models import DownloadCount, ReleaseFile
from releases.repoconfig.models import Mirror
from releases.tally import hand_over_tallies, take_from_tally, tally, tally_keys

FILE_ID_PATTERN = r"[0-9]{1,9}"  # a file id in URLs
FILE_ID = re.compile(f"^{FILE_ID_PATTERN}$")
TALLY_PREFIX = "downloads:tally"
# A counter not flushed within this time is dropped by Redis (the flush runs every minute).
TALLY_KEEP_SECONDS = 3 * 24 * 3600


@dataclass(frozen=True)
class FilePlace:
    release_id: int
    os: str
    architecture: str
    path: str


@dataclass(frozen=True)
class MirrorRef:
    mirror_id: str
    base_url: str


def published_file(version: str | None, file_ref: str) -> ReleaseFile | None:
    """A file of a published release, by version and file name or id (or by id alone)."""
    files = ReleaseFile.objects.select_related("release").filter(release__is_published=True)
    if version is None:
        return files.filter(pk=int(file_ref)).first()
    files = files.filter(release__version=version)
    if FILE_ID.match(file_ref):
        return files.filter(pk=int(file_ref)).first()
    return files.filter(file_name=file_ref).first()


def file_place(version: str, file_ref: str) -> FilePlace | None:
    def find():
        file = published_file(version, file_ref)
        if file is None:
            return None
        return FilePlace(file.release_id, file.os, file.architecture, file.path)

    return kept_with_content(f"downloads:file:{version}/{file_ref}", find)


def usable_mirrors(country: str | None) -> list[MirrorRef]:
    """Healthy, fresh mirrors, those in ``country`` first (Mirror.objects.for_country)."""

    def find():
        return [MirrorRef(m.mirror_id, m.base_url) for m in Mirror.objects.for_country(country)]

    return kept_with_content(f"downloads:mirrors:{country or ''}", find)


def _tally_key(place: FilePlace, day: date) -> str:
    return ":".join(
        [
            TALLY_PREFIX,
            day.isoformat(),
            str(place.release_id),
            quote(place.os, safe=""),
            quote(place.architecture, safe=""),
        ]
    )


def _place_of(key: str) -> tuple[FilePlace, date]:
    day, release_id, os, architecture = key.removeprefix(TALLY_PREFIX + ":").split(":")
    place = FilePlace(int(release_id), unquote(os), unquote(architecture), path="")
    return place, date.fromisoformat(day)


def record_download(place: FilePlace) -> None:
    """One more download of the file's release, OS and architecture today: counted in
    Redis (releases.tally), or in the database at once when there is no Redis."""
    for key, count in tally(_tally_key(place, timezone.localdate()), TALLY_KEEP_SECONDS):
        add_to_counts(*_place_of(key), count)


def hand_over_counts() -> None:
    """At a worker's exit: this process's counts to Redis, or else to the database."""
    for key, count in hand_over_tallies(TALLY_KEEP_SECONDS):
        add_to_counts(*_place_of(key), count)


def add_to_counts(place: FilePlace, day: date, count: int) -> None:
    key = {
        "release_id": place.release_id,
        "os": place.os,
        "architecture": place.architecture,
        "day": day,
    }
    if DownloadCount.objects.filter(**key).update(count=F("count") + count):
        return
    try:
        with transaction.atomic():
            DownloadCount.objects.create(count=count, **key)
    except IntegrityError:  # created by a concurrent request in between
        DownloadCount.objects.filter(**key).update(count=F("count") + count)


def flush_download_counts() -> int:
    """Move the counters from Redis into DownloadCount; answers how many downloads moved.

    Each counter is lowered by what is moved (downloads counted meanwhile stay for the next
    flush) and raised again if the database refuses the row."""
    moved = 0
    for key in tally_keys(f"{TALLY_PREFIX}:*"):
        count = cache.get(key)
        if not count:
            continue
        place, day = _place_of(key)
        take_from_tally(key, count)
        try:
            add_to_counts(place, day, count)
        except Exception:
            take_from_tally(key, -count)
            raise
        moved += count
    return moved
