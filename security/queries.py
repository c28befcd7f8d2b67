"""What the advisories say about a release, a series or a version string a server printed:
which advisories affect it, which a release fixes, and what to upgrade to. Every page, the
API and the feedback exposure figure ask here; the rule itself is ``security.ranges``."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Q

from releases.models import Release, Series
from releases.versions import series_sort_key
from security.models import AffectedRange
from security.ranges import Span, VersionKey, series_of, version_key


def span_of(affected: AffectedRange) -> Span:
    def key(release):
        if release is None:
            return None
        return (release.version_major, release.version_minor, release.version_patch)

    return Span(key(affected.introduced), key(affected.fixed))


def ranges_in(*series_versions: str, pks=None):
    """Every range (of the series named, if any are; of those ``pks``, if given), with its
    advisory and releases, newest advisory first."""
    ranges = AffectedRange.objects.select_related(
        "advisory", "series", "introduced__series", "fixed__series"
    )
    if series_versions:
        ranges = ranges.filter(series__version__in=series_versions)
    if pks is not None:
        ranges = ranges.filter(pk__in=pks)
    return list(ranges.order_by("-advisory__published", "-advisory__advisory_id"))


SPAN_NUMBERS = (
    "introduced__version_major",
    "introduced__version_minor",
    "introduced__version_patch",
    "fixed__version_major",
    "fixed__version_minor",
    "fixed__version_patch",
)


def _spans_of(rows, label: str):
    """``(label value, Span)`` of each range of ``rows``, read as numbers only."""
    for value, *numbers in rows.values_list(label, *SPAN_NUMBERS):
        introduced, fixed = tuple(numbers[:3]), tuple(numbers[3:])
        yield (
            value,
            Span(None if None in introduced else introduced, None if None in fixed else fixed),
        )


def spans_by_series(*series_versions: str, ratings: Iterable[str] | None = None):
    """The ranges' spans (of the series named, if any are; of advisories rated one of
    ``ratings``, if given), by series: the numbers only, for the questions that need no
    advisory's text."""
    rows = AffectedRange.objects.all()
    if series_versions:
        rows = rows.filter(series__version__in=series_versions)
    if ratings is not None:
        rows = rows.filter(advisory__rating__in=list(ratings))
    by_series: dict[str, list[Span]] = {}
    for version, span in _spans_of(rows, "series__version"):
        by_series.setdefault(version, []).append(span)
    return by_series


def affecting(series_version: str, key: VersionKey, ranges=None) -> list[AffectedRange]:
    """The ranges that include release ``key`` of the series, newest advisory first.

    Without ``ranges``, the series' spans are read as numbers first and only the ranges
    that include ``key`` are read whole (with their advisory and releases): an old
    series has hundreds of ranges, and a release page shows the few that affect it."""
    if ranges is None:
        spans = _spans_of(AffectedRange.objects.filter(series__version=series_version), "pk")
        ranges = ranges_in(series_version, pks=[pk for pk, span in spans if span.includes(key)])
    return [r for r in ranges if r.series.version == series_version and span_of(r).includes(key)]


def release_key(release: Release) -> VersionKey:
    return (release.version_major, release.version_minor, release.version_patch)


def fixed_by(release: Release) -> list[AffectedRange]:
    return list(
        AffectedRange.objects.filter(fixed=release)
        .select_related("advisory", "series", "introduced__series", "fixed__series")
        .order_by("-advisory__published", "-advisory__advisory_id")
    )


def maintained_series(today: date, series: Iterable[Series]) -> list[Series]:
    """Of ``series`` (read ``with_release_facts``), those with a stable release and
    before their end of life, oldest first."""
    return sorted(
        (s for s in series if s.has_ga and not s.is_eol(today)),  # type: ignore[attr-defined]  # with_release_facts adds it
        key=lambda s: s.sort_key,
    )


@dataclass(frozen=True)
class Upgrade:
    release: Release | None
    same_series: bool
    reason: str


def upgrade_target(series_version: str, today: date) -> Upgrade:
    """The newest release one can download (files recorded here, none on their way) of
    the series while it is maintained, else the newest stable such release of the next
    maintained series; a candidate that a known advisory still affects is passed over for
    the next series, and so is a series with nothing to download."""
    every_series = list(Series.objects.with_release_facts())  # own and the next: one query
    own = next((s for s in every_series if s.version == series_version), None)
    candidates: list[tuple[Series, bool]] = []
    if own is not None and not own.is_eol(today):
        candidates.append((own, True))
    candidates += [
        (s, False)
        for s in maintained_series(today, every_series)
        if s.sort_key > series_sort_key(series_version) and s.version != series_version
    ]
    if not candidates:
        return Upgrade(None, False, "no maintained release is free of the known advisories")
    spans = spans_by_series(*(series.version for series, _ in candidates))
    newest_of = {  # each candidate's newest release (its newest stable one in another series)
        release.series_id: release
        for release in Release.objects.downloadable()
        .filter(
            Q(series__in=[s for s, same in candidates if same])
            | Q(series__in=[s for s, same in candidates if not same], maturity=Release.Maturity.GA)
        )
        .select_related("series")
        .order_by("series_id", "-version_major", "-version_minor", "-version_patch")
        .distinct("series_id")
    }
    for series, same in candidates:
        newest = newest_of.get(series.pk)
        if newest is None:
            continue
        if any(span.includes(release_key(newest)) for span in spans.get(series.version, [])):
            continue
        if same:
            reason = f"the newest release of {series.version} with files to download"
        elif own is not None and own.is_eol(today):
            reason = f"{series_version} has reached its end of life: the newest release of {series.version} with files to download, the next maintained series"
        else:
            reason = f"the newest release of {series.version} with files to download, the next maintained series"
        return Upgrade(newest, same, reason)
    return Upgrade(
        None, False, "no maintained release with files to download is free of the known advisories"
    )


def newest_version(series: Series) -> str | None:
    """The highest published release of the series, or None."""
    return (
        Release.objects.published()
        .filter(series=series)
        .by_version()
        .values_list("version", flat=True)
        .first()
    )


def versions_affected(versions: Iterable[str], ratings: Iterable[str]) -> set[str]:
    """Which of ``versions`` (major.minor.patch strings) an advisory rated one of
    ``ratings`` affects; other strings are ignored."""
    by_series = spans_by_series(ratings=ratings)
    affected = set()
    for version in versions:
        try:
            key = version_key(version)
        except ValueError:
            continue
        if any(span.includes(key) for span in by_series.get(series_of(version), [])):
            affected.add(version)
    return affected


class UnknownSeries(ValueError):
    pass


@dataclass(frozen=True)
class Check:
    """The answer to "Am I affected?" for one release of a series."""

    version: str
    series: Series
    known_release: Release | None
    affecting: list[AffectedRange]
    upgrade: Upgrade


def check_release(major: int, minor: int, patch: int, today: date) -> Check:
    """What affects release major.minor.patch, and what to upgrade to. A series the
    catalogue does not know is ``UnknownSeries`` (a MySQL server prints 8.0.x)."""
    series_version = f"{major}.{minor}"
    series = Series.objects.filter(version=series_version).first()
    if series is None:
        raise UnknownSeries(
            f"MariaDB has no release series {series_version}: is this a MariaDB server? "
            "MySQL prints versions such as 8.0.36, which this check cannot answer for."
        )
    version = f"{major}.{minor}.{patch}"
    return Check(
        version=version,
        series=series,
        known_release=Release.objects.published().filter(version=version).first(),
        affecting=affecting(series_version, (major, minor, patch)),
        upgrade=upgrade_target(series_version, today),
    )
