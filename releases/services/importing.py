"""Importing what is known about releases: series and releases from the catalogue, and
their files from the release archive (or a file list)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction

from core import edge
from releases.archive import ReleaseScan, scan_release
from releases.catalogue import Catalogue, SeriesFacts
from releases.models import Release, ReleaseFile, Series
from releases.release_files import DIGEST_LENGTHS, FileRecord
from releases.services.announcing import announce_from_catalogue
from search import signals as search_signals

# Pre-GA maturities, least to most mature: a series without a GA release takes the status
# of its most mature release.
PRE_GA_ORDER = ["preview", "alpha", "beta", "rc"]


@dataclass
class ImportReport:
    series: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    releases: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    kept_unlisted: int = 0
    announced: int = 0

    def lines(self):
        yield "series: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.series
        )
        yield "releases: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.releases
        )
        if self.kept_unlisted:
            yield f"{self.kept_unlisted} releases in the database are not in the file (kept)"
        yield f"announcements generated from the catalogue: {self.announced}"


def _series_values(version, facts: SeriesFacts | None, maturities, today):
    if facts is None:
        # A series the file only knows through pre-GA releases (e.g. a 13.0 preview).
        pre_ga = [m for m in maturities if m in PRE_GA_ORDER]
        status = (
            max(pre_ga, key=PRE_GA_ORDER.index) if pre_ga and "ga" not in maturities else "stable"
        )
        return {
            "name": f"MariaDB {version}",
            "status": status,
            "support_type": Series.SupportType.UNANNOUNCED,
        }
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
    descriptions, notes, files, announcements and publication stay as staff left them. A
    published release without an announcement gets one generated from these facts
    (services.announcing).
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
    listed, new = set(), []
    for facts in progress(catalogue.releases):
        listed.add(facts.version)
        values = {
            "series": series_by_version[facts.series],
            "release_date": facts.release_date,
            "maturity": facts.maturity,
        }
        release = existing.get(facts.version)
        if release is None:
            new.append(Release(version=facts.version, **values).fill_version_parts())
            report.releases["created"] += 1
        elif _apply(release, values):
            release.save()
            report.releases["updated"] += 1
        else:
            report.releases["unchanged"] += 1
    # Hundreds at a first import: written in one go, so no post_save per row; the search
    # index and the edge are told once.
    created = Release.objects.bulk_create(new)
    if created:
        search_signals.saved_in_bulk_many(Release, [r.pk for r in created])
        edge.content_changed()
    report.kept_unlisted = len(set(existing) - listed)
    report.announced = announce_from_catalogue(
        Release.objects.filter(version__in=listed, announcement__isnull=True).select_related(
            "series"
        )
    )
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
    values = {
        "os": record.os,
        "architecture": record.architecture,
        "package_type": record.package_type,
        "path": record.path,
    }
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
