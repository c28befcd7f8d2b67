"""Publishing a release: its files from the archive, its repositories, and its
announcement in the foundation's news."""

from django.db import transaction

from foundation.services import publish_news_post
from outbox import queue
from releases import mail
from releases.archive import ArchiveError, open_archive
from releases.models import Release, Series
from releases.repoconfig.models import Availability
from releases.services.announcing import (
    GENERATED_BYLINE,
    STAFF_BYLINE,
    announcement_date,
    announcement_draft,
    announcement_slug,
)
from releases.services.importing import ArchiveReport, import_archive


def ensure_repository_availability(series: Series) -> int:
    """A series without repository rows gets those of the newest series that has them:
    the build scripts build a new series in their default row (docs/repo-config.md).
    Returns how many rows were added."""
    if series.is_eol_today or series.availability.exists():
        return 0
    with_rows = list(Series.objects.filter(availability__isnull=False).distinct())
    if not with_rows:
        return 0
    newest = max(with_rows, key=lambda s: s.sort_key)
    rows = [
        Availability(series=series, release_id=row.release_id, architectures=row.architectures)
        for row in newest.availability.all()
    ]
    Availability.objects.bulk_create(rows)
    return len(rows)


class FilesMissing(Exception):
    """A stable release with no recorded file is published only by staff's explicit choice."""


def needs_files_choice(release: Release) -> bool:
    """Whether publishing ``release`` needs staff to choose to publish it without files: a
    stable release, not published yet, with no file recorded."""
    return (
        release.maturity == Release.Maturity.GA
        and not Release.objects.published().filter(pk=release.pk).exists()
        and not release.files.exists()
    )


@transaction.atomic
def publish_release(
    release: Release, announcement: dict | None = None, *, without_files: bool = False
) -> Release:
    """Publish a release and create or update its announcement (idempotent). In one
    transaction: the release (page, APIs and feeds list published releases), its series'
    repositories, and the news post (``announcement``: staff's edited title and body), live
    from now at the latest so that nothing links to a page that is not there yet.
    A stable release without files raises FilesMissing unless ``without_files`` (staff's
    choice): then the pages and APIs say its files are on their way until they are recorded.
    The mail to subscribers is an outbox item of the same transaction (sent once per release)."""
    if needs_files_choice(release):
        if not without_files:
            raise FilesMissing(
                f"MariaDB {release.version} has no files yet: choose to publish it without "
                "files, or import them first."
            )
        release.files_pending = True
    elif release.files_pending and release.files.exists():
        release.files_pending = False  # staff added them in the admin
    release.is_published = True
    # Staff's text when they wrote one (the review page), else the one generated from the
    # catalogue, labelled as such.
    draft = announcement_draft(release) | (announcement or {})
    post = publish_news_post(
        slug=announcement_slug(release),
        title=draft["title"],
        body=draft["body"],
        category="Releases",
        summary=draft["summary"],
        author_name=STAFF_BYLINE if announcement else GENERATED_BYLINE,
        published_at=announcement_date(release),
    )
    release.announcement = post
    release.save()
    if release.maturity == Release.Maturity.GA:
        ensure_repository_availability(release.series)
    if release.mailed_at is None:
        queue.enqueue(mail.RELEASE_ANNOUNCEMENTS, release_id=release.pk)
    return release


def prepare_release(*, version, release_date, maturity, archive_location):
    """Keep the release unpublished with its facts, then record its files from the
    archive. Returns (release, ArchiveReport or None, the archive's error or "")."""
    series_version = ".".join(version.split(".")[:2])
    with transaction.atomic():
        release, _ = Release.objects.update_or_create(
            version=version,
            defaults={
                "series": Series.objects.get(version=series_version),
                "release_date": release_date,
                "maturity": maturity,
                "is_published": False,
            },
        )
    return release, *read_archive(release, archive_location)


def read_archive(release: Release, archive_location) -> tuple[ArchiveReport | None, str]:
    """Record the release's files from the archive: (ArchiveReport or None, the archive's
    error or "")."""
    try:
        return import_archive(open_archive(archive_location), [release.version]), ""
    except ArchiveError as error:
        return None, str(error)


def archive_outcome(release: Release, report: ArchiveReport | None, error: str) -> tuple[bool, str]:
    """One message for staff about the archive step: (whether it went well, what happened
    and what they can do)."""
    top = f"mariadb-{release.version}/"
    if error:
        return False, (
            f"The release archive could not be reached ({error}), so no files were imported. "
            "Try again, or publish without files and import them later."
        )
    count = release.files.count()
    if not any(scan.found for scan in report.scans):
        return False, (
            f"The release archive has no {top} directory yet, so no files were imported. "
            "Try again once the files are uploaded, or publish without files and import them "
            "later."
        )
    problems = report.problems
    text = f"{count} file{'s' if count != 1 else ''} of {top} recorded from the release archive"
    if report.files:
        text += (
            f" ({report.files.created} new, {report.files.updated} updated, "
            f"{report.files.unchanged} unchanged)"
        )
    if problems:
        return False, text + ". Problems: " + "; ".join(problems)
    return count > 0, text + "."
