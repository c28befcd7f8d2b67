"""Workflows that change advisories: importing the advisories file, and attaching the
advisories a release fixes (the release publishing flow offers it)."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from releases.models import Release, Series
from security.advisory_file import AdvisoryRecord
from security.models import Advisory, AffectedRange


class ImportRefused(ValueError):
    """The file names a series or release the catalogue does not have: nothing changed."""


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    ranges: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"{self.created} advisories created, {self.updated} updated, "
            f"{self.unchanged} unchanged; {self.ranges} ranges"
        ]


ADVISORY_FIELDS = [
    "aliases",
    "published",
    "summary",
    "component",
    "rating",
    "cvss_score",
    "cvss_vector",
    "cvss_v4_vector",
    "cvss_v4_score",
    "rating_source",
    "vector_source",
    "cwe",
    "reported_for",
    "third_party_component",
    "references",
    "sources",
    "note",
]


def _release_lookup(
    records: list[AdvisoryRecord],
) -> tuple[dict[str, Series], dict[str, Release]]:
    series = {s.version: s for s in Series.objects.all()}
    wanted = {v for r in records for span in r.ranges for v in (span.introduced, span.fixed) if v}
    releases = {r.version: r for r in Release.objects.filter(version__in=wanted)}
    missing_series = sorted({s.series for r in records for s in r.ranges} - set(series))
    missing_releases = sorted(wanted - set(releases))
    if missing_series or missing_releases:
        raise ImportRefused(
            "The release catalogue lacks "
            + "; ".join(
                part
                for part in (
                    f"series {', '.join(missing_series)}" if missing_series else "",
                    f"releases {', '.join(missing_releases)}" if missing_releases else "",
                )
                if part
            )
            + ": import the releases first (manage.py import_releases)."
        )
    return series, releases


def _checked(advisory: Advisory) -> Advisory:
    """The model's own rules (lengths, the CVSS vector) for what the file says."""
    try:
        advisory.full_clean(validate_unique=False)
    except ValidationError as error:
        raise ImportRefused(f"{advisory.advisory_id}: {'; '.join(error.messages)}") from error
    return advisory


def stated_moment(record: AdvisoryRecord, after: datetime | None = None) -> datetime:
    """When the record's facts were stated: midnight UTC of the file's day, or now when the
    file gives none or its day is not after ``after`` (a change staff made since)."""
    if record.stated_on is None:
        return timezone.now()
    moment = datetime.combine(record.stated_on, time(0), tzinfo=UTC)
    return moment if after is None or moment > after else timezone.now()


def touch(advisory: Advisory, when: datetime | None = None) -> None:
    """Record that the advisory's facts changed (its OSV ``modified``)."""
    advisory.modified = when or timezone.now()
    Advisory.objects.filter(pk=advisory.pk).update(modified=advisory.modified)


@transaction.atomic
def import_advisories(records: list[AdvisoryRecord]) -> ImportReport:
    """Create or update every advisory of the file, and its ranges: the file's series are
    set as the file says; ranges staff added for other series are kept. Running it again
    changes nothing."""
    series, releases = _release_lookup(records)
    report = ImportReport()
    existing = {a.advisory_id: a for a in Advisory.objects.with_ranges()}
    for record in records:
        values = {name: getattr(record, name) for name in ADVISORY_FIELDS}
        advisory = existing.get(record.advisory_id)
        if advisory is None:
            advisory = _checked(
                Advisory(advisory_id=record.advisory_id, modified=stated_moment(record), **values)
            )
            advisory.save()
            created, changed, current = True, True, {}
        else:
            created = False
            changed_fields = [n for n, v in values.items() if getattr(advisory, n) != v]
            for name in changed_fields:
                setattr(advisory, name, values[name])
            changed = bool(changed_fields)
            if changed:
                _checked(advisory).save()
            current = {r.series.version: r for r in advisory.ranges.all()}
        for span in record.ranges:
            wanted = {
                "introduced": releases.get(span.introduced) if span.introduced else None,
                "fixed": releases.get(span.fixed) if span.fixed else None,
                "basis": span.basis,
            }
            stored = current.pop(span.series, None)
            report.ranges += 1
            if stored is None:
                AffectedRange.objects.create(
                    advisory=advisory, series=series[span.series], **wanted
                )
                changed = True
            elif any(getattr(stored, n) != v for n, v in wanted.items()):
                for name, value in wanted.items():
                    setattr(stored, name, value)
                stored.save()
                changed = True
        stale = [r.pk for r in current.values() if r.basis != AffectedRange.Basis.STAFF]
        if stale:
            AffectedRange.objects.filter(pk__in=stale).delete()
            changed = True
        if created:
            report.created += 1
        elif changed:
            touch(advisory, stated_moment(record, after=advisory.modified))
            report.updated += 1
        else:
            report.unchanged += 1
    return report


class AttachRefused(ValueError):
    pass


@transaction.atomic
def attach_fix(release: Release, advisories: Iterable[Advisory]) -> int:
    """Record ``release`` as the fix of each advisory in its series: a range of that series
    without a fix (or with a later one) ends at ``release``; an advisory without a range
    for the series gets one, from the start of the series. Returns how many changed."""
    changed = 0
    for advisory in advisories:
        span, created = AffectedRange.objects.get_or_create(
            advisory=advisory,
            series=release.series,
            defaults={"fixed": release, "basis": AffectedRange.Basis.STAFF},
        )
        if created:
            touch(advisory)
            changed += 1
            continue
        if span.fixed_id == release.pk:
            continue
        if span.introduced and not _key(span.introduced) < _key(release):
            raise AttachRefused(
                f"{advisory} affects {release.series.version} only from "
                f"{span.introduced.version}: {release.version} cannot be its fix."
            )
        span.fixed = release
        span.save()
        touch(advisory)
        changed += 1
    return changed


def _key(release: Release) -> tuple[int, int, int]:
    return (release.version_major, release.version_minor, release.version_patch)
