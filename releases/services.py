"""Release workflows: publishing a release and announcing it in the foundation's news."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from foundation.services import publish_news_post
from outbox import queue
from releases import mail
from releases.archive import ArchiveError, HttpArchive, ReleaseScan, open_archive, scan_release
from releases.catalogue import Catalogue, SeriesFacts
from releases.models import AnnouncementSubscriber, Release, ReleaseFile, Series
from releases.release_files import DIGEST_LENGTHS, FileRecord
from releases.repoconfig.models import Availability, Mirror
from releases.subscriptions import subscriber_to_confirm, subscriber_to_unsubscribe

MATURITY_WORDS = {"alpha": "alpha", "beta": "beta", "rc": "release candidate", "ga": "stable"}


def announcement_slug(release: Release) -> str:
    return f"mariadb-{release.version.replace('.', '-')}-released"


def announcement_draft(release: Release) -> dict:
    """The announcement's title, summary and body from the template, for staff to edit."""
    site = settings.SITE_URL.rstrip("/")
    context = {
        "release": release,
        "series": release.series,
        "release_url": site + release.get_absolute_url(),
        "series_url": site + release.series.get_absolute_url(),
        "feedback_url": site + "/feedback/",
        "generator_url": site
        + reverse("repoconfig:generator")
        + f"?version={release.series.version}",
    }
    words = MATURITY_WORDS[release.maturity]
    return {
        "title": f"MariaDB {release.version} {words} released",
        "body": render_to_string("releases/announcement.md", context),
        "summary": (
            f"The project is pleased to announce the immediate availability of MariaDB "
            f"{release.version}, {'an' if release.maturity == 'alpha' else 'a'} {words} release."
        ),
    }


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
    rows = [Availability(series=series, release_id=row.release_id, architectures=row.architectures)
            for row in newest.availability.all()]  # fmt: skip
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
    draft = announcement_draft(release) | (announcement or {})
    post = publish_news_post(
        slug=announcement_slug(release),
        title=draft["title"],
        body=draft["body"],
        category="Releases",
        summary=draft["summary"],
        author_name="The MariaDB Foundation",
        published_at=datetime.combine(release.release_date, time(12, 0), tzinfo=UTC),
    )
    release.announcement = post
    release.save()
    if release.maturity == Release.Maturity.GA:
        ensure_repository_availability(release.series)
    if release.mailed_at is None:
        queue.enqueue(mail.RELEASE_ANNOUNCEMENTS, release_id=release.pk)
    return release


@transaction.atomic
def subscribe_to_announcements(email: str) -> None:
    """Ask ``email`` to confirm its subscription; an address already subscribed is kept as
    it is (a confirmed one gets no mail), so the answer never tells who is subscribed."""
    subscriber, _ = AnnouncementSubscriber.objects.get_or_create(email=email.strip().lower())
    if subscriber.confirmed_at is None:
        queue.enqueue(mail.SUBSCRIPTION_CONFIRMATION, subscriber_id=subscriber.pk)


def is_confirmation_link(token: str) -> bool:
    """Whether ``token`` confirms a subscription that still exists (nothing is changed)."""
    subscriber_id = subscriber_to_confirm(token)
    return (
        subscriber_id is not None
        and AnnouncementSubscriber.objects.filter(pk=subscriber_id).exists()
    )


def confirm_subscription(token: str) -> AnnouncementSubscriber | None:
    """The confirmed subscriber, or None when the link was tampered with, has expired or
    its subscription is gone."""
    subscriber_id = subscriber_to_confirm(token)
    subscriber = AnnouncementSubscriber.objects.filter(pk=subscriber_id).first()
    if subscriber is None:  # filter(pk=None) finds nothing
        return None
    if subscriber.confirmed_at is None:
        subscriber.confirmed_at = timezone.now()
        subscriber.save(update_fields=["confirmed_at"])
    return subscriber


def is_unsubscribe_link(token: str) -> bool:
    """Whether ``token`` is an unsubscribe link of this site (its subscriber may be gone)."""
    return subscriber_to_unsubscribe(token) is not None


def unsubscribe(token: str) -> bool:
    """Delete the subscriber the link was made for (already gone: nothing to do). Answers
    whether the link is one of this site's unsubscribe links; if not, nothing changes."""
    subscriber_id = subscriber_to_unsubscribe(token)
    if subscriber_id is None:
        return False
    AnnouncementSubscriber.objects.filter(pk=subscriber_id).delete()
    return True


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


# Pre-GA maturities, least to most mature: a series without a GA release takes the status
# of its most mature release.
PRE_GA_ORDER = ["preview", "alpha", "beta", "rc"]


@dataclass
class ImportReport:
    series: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    releases: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    kept_unlisted: int = 0

    def lines(self):
        yield "series: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.series
        )
        yield "releases: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.releases
        )
        if self.kept_unlisted:
            yield f"{self.kept_unlisted} releases in the database are not in the file (kept)"


def _series_values(version, facts: SeriesFacts | None, maturities, today):
    if facts is None:
        # A series the file only knows through pre-GA releases (e.g. a 13.0 preview).
        pre_ga = [m for m in maturities if m in PRE_GA_ORDER]
        status = (
            max(pre_ga, key=PRE_GA_ORDER.index) if pre_ga and "ga" not in maturities else "stable"
        )
        return {"name": f"MariaDB {version}", "status": status,
                "support_type": Series.SupportType.UNANNOUNCED}  # fmt: skip
    if facts.ga_date and facts.ga_date <= today:
        status = Series.Status.EOL if facts.eol_date and facts.eol_date < today else "stable"
    else:
        pre_ga = [m for m in maturities if m in PRE_GA_ORDER]
        status = max(pre_ga, key=PRE_GA_ORDER.index) if pre_ga else Series.Status.RC
    return {
        "name": f"MariaDB {version}",
        "status": status,
        "support_type": facts.support_type
        or (Series.SupportType.LONG_TERM if facts.long_term else Series.SupportType.SHORT_TERM),
        "first_release_date": facts.ga_date,
        "eol_date": facts.eol_date,
        "enterprise_eos_date": facts.enterprise_eos_date,
    }


def _apply(obj, values) -> bool:
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    for name in changed:
        setattr(obj, name, values[name])
    return bool(changed)


@transaction.atomic
def import_catalogue(
    catalogue: Catalogue,
    today: date,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
) -> ImportReport:
    """Create or update series and releases from the catalogue; never deletes anything.

    Only the facts the file holds are written (dates, maturity, support, end of life):
    descriptions, notes, files, announcements and publication stay as staff left them.
    """
    report = ImportReport()
    facts_by_series = {s.version: s for s in catalogue.series}
    maturities: dict[str, set] = {}
    for release in catalogue.releases:
        maturities.setdefault(release.series, set()).add(release.maturity)
    existing_series = {s.version: s for s in Series.objects.all()}
    series_by_version = {}
    for version in sorted(set(facts_by_series) | set(maturities)):
        values = _series_values(
            version, facts_by_series.get(version), maturities.get(version, set()), today
        )
        obj = existing_series.get(version)
        if obj is None:
            series_by_version[version] = Series.objects.create(version=version, **values)
            report.series["created"] += 1
            continue
        if version not in facts_by_series:
            values.pop("support_type")  # staff may have announced it since
        if _apply(obj, values):
            obj.save()
            report.series["updated"] += 1
        else:
            report.series["unchanged"] += 1
        series_by_version[version] = obj
    existing = {r.version: r for r in Release.objects.all()}
    listed = set()
    for facts in progress(catalogue.releases):
        listed.add(facts.version)
        values = {"series": series_by_version[facts.series], "release_date": facts.release_date,
                  "maturity": facts.maturity}  # fmt: skip
        release = existing.get(facts.version)
        if release is None:
            Release.objects.create(version=facts.version, **values)
            report.releases["created"] += 1
        elif _apply(release, values):
            release.save()
            report.releases["updated"] += 1
        else:
            report.releases["unchanged"] += 1
    report.kept_unlisted = len(set(existing) - listed)
    return report


@dataclass
class FileReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    unknown_release: set = field(default_factory=set)
    changes: list = field(default_factory=list)  # "release/file: field old -> new"

    def lines(self):
        yield f"files: {self.created} created, {self.updated} updated, {self.unchanged} unchanged"
        yield from (f"CHANGED {change}" for change in self.changes)
        if self.unknown_release:
            yield "skipped files of releases not in the catalogue: " + ", ".join(
                sorted(self.unknown_release)
            )


def _file_values(record: FileRecord, existing: ReleaseFile | None) -> dict:
    """What a record says about a file. An importer that does not know a digest, the size
    or the signature leaves what is recorded alone; sources accumulate."""
    values = {"os": record.os, "architecture": record.architecture,
              "package_type": record.package_type, "path": record.path}  # fmt: skip
    for name in DIGEST_LENGTHS:
        if record.digests[name]:
            values[name] = record.digests[name]
    if record.size is not None:
        values["size"] = record.size
    if record.signature_path:
        values["signature_path"] = record.signature_path
    if record.signature:
        values["signature"] = record.signature
    known = existing.sources.splitlines() if existing else []
    values["sources"] = "\n".join([*known, *(s for s in record.sources if s not in known)])
    return values


@transaction.atomic
def record_release_files(
    records: Iterable[FileRecord],
    progress: Callable[[Iterable], Iterable] = lambda items: items,
) -> FileReport:
    """Create or update release files (idempotent). Every changed fact of a file that was
    already recorded is reported, old and new value, never overwritten silently."""
    report = FileReport()
    records = list(records)
    releases = {
        r.version: r for r in Release.objects.filter(version__in={x.release for x in records})
    }
    existing = {
        (f.release_id, f.file_name): f
        for f in ReleaseFile.objects.filter(release__in=releases.values())
    }
    order = {}
    for record in progress(records):
        release = releases.get(record.release)
        if release is None:
            report.unknown_release.add(record.release)
            continue
        current = existing.get((release.pk, record.file_name))
        values = _file_values(record, current)
        if current is None:
            position = order.setdefault(release.pk, release.files.count())
            order[release.pk] += 1
            ReleaseFile.objects.create(
                release=release, file_name=record.file_name, order=position, **values
            )
            report.created += 1
            continue
        changed = [name for name, value in values.items() if getattr(current, name) != value]
        if not changed:
            report.unchanged += 1
            continue
        for name in changed:
            if name not in ("sources", "signature"):
                report.changes.append(
                    f"{record.release}/{record.file_name}: {name} "
                    f"{getattr(current, name) or '(none)'} -> {values[name]}"
                )
            setattr(current, name, values[name])
        current.save()
        report.updated += 1
    # A release published without files has them now.
    Release.objects.filter(files_pending=True, files__isnull=False).update(files_pending=False)
    return report


@dataclass
class ArchiveReport:
    scans: list[ReleaseScan] = field(default_factory=list)
    files: FileReport | None = None

    @property
    def problems(self):
        return [problem for scan in self.scans for problem in scan.problems]

    def lines(self):
        found = [scan for scan in self.scans if scan.found]
        yield (
            f"releases scanned: {len(self.scans)}, found in the archive: {len(found)}, "
            f"files seen: {sum(len(scan.records) for scan in found)}"
        )
        yield from self.problems
        if self.files:
            yield from self.files.lines()


def import_archive(archive, versions, progress=lambda items: items) -> ArchiveReport:
    """Scan the given releases in the archive, then record their files in one transaction.
    Files whose local copy contradicts the published SHA-256 are reported, not recorded."""
    report = ArchiveReport()
    for version in progress(list(versions)):
        report.scans.append(scan_release(archive, version))
    report.files = record_release_files(r for scan in report.scans for r in scan.records)
    return report


def choose_mirror(mirrors, wanted=None, country=None):
    """The mirror to use among ``mirrors`` (usable ones, ordered by
    ``Mirror.objects.for_country(country)``): the one asked for, else the first."""
    asked = next((m for m in mirrors if wanted and m.mirror_id == wanted), None)
    return asked or next(iter(mirrors), None)


def newest_release():
    return Release.objects.published().order_by("-release_date", "-version_major",
                                                 "-version_minor", "-version_patch").first()  # fmt: skip


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


def prepare_release(*, version, release_date, maturity, archive_location):
    """Keep the release unpublished with its facts, then record its files from the
    archive. Returns (release, ArchiveReport or None, the archive's error or "")."""
    series_version = ".".join(version.split(".")[:2])
    with transaction.atomic():
        release, _ = Release.objects.update_or_create(
            version=version,
            defaults={"series": Series.objects.get(version=series_version),
                      "release_date": release_date, "maturity": maturity, "is_published": False},
        )  # fmt: skip
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
