"""Advisories as OSV records (https://ossf.github.io/osv-schema/), the format vulnerability
scanners read, and all of them in one ZIP.

MariaDB Server has no OSV ecosystem, so there is no ``package`` and no ECOSYSTEM range:
each record enumerates the affected upstream Git tags of MariaDB/server (``mariadb-X.Y.Z``,
every published release a range includes) in ``affected[].versions``, and beside them
gives ``affected[].ranges``: one SEMVER range per series (``semver_range``), so a tool can
evaluate a version no list names. A GIT range needs full-length fix commits, which the
sources do not give.
"""

import io
import json
import re
import zipfile
from datetime import UTC, datetime, time

from releases.models import Release
from security.models import Advisory
from security.queries import release_key, span_of

SCHEMA_VERSION = "1.6.7"
REPOSITORY = "https://github.com/MariaDB/server"
TAG_PREFIX = "mariadb-"
CWE_ID = re.compile(r"CWE-[0-9]+")


def _timestamp(moment) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _reference(url: str) -> dict:
    if "/security/advisories/" in url:
        kind = "ADVISORY"
    elif "jira.mariadb.org" in url:
        kind = "REPORT"
    else:
        kind = "WEB"
    return {"type": kind, "url": url}


def releases_by_series(series_versions) -> dict[str, list[Release]]:
    """Published releases of the series, oldest first (one query)."""
    grouped: dict[str, list[Release]] = {}
    releases = (
        Release.objects.published()
        .filter(series__version__in=list(series_versions))
        .select_related("series")
        .order_by("version_major", "version_minor", "version_patch")
    )
    for release in releases:
        grouped.setdefault(release.series.version, []).append(release)
    return grouped


def affected_tags(spans, releases: dict[str, list[Release]]) -> list[str]:
    """The tags of the published releases the ranges include, series by series."""
    tags = []
    for span in spans:
        rule = span_of(span)
        tags += [
            f"{TAG_PREFIX}{r.version}"
            for r in releases.get(span.series.version, [])
            if rule.includes(release_key(r))
        ]
    return tags


def semver_range(span, releases: list[Release]) -> dict:
    """One series' range as OSV SEMVER events: introduced at the first affected release (the
    series' ``X.Y.0`` when it is affected from its start), fixed at the first release with
    the fix; a series no release fixes ends at ``last_affected``, its newest release, so
    the range never runs on into the next series. One range per series: SEMVER compares
    across series, and an open range would claim every later version."""
    series = span.series.version
    introduced = span.introduced.version if span.introduced_id else f"{series}.0"
    events = [{"introduced": introduced}]
    if span.fixed_id:
        events.append({"fixed": span.fixed.version})
    else:
        newest = releases[-1].version if releases else introduced
        events.append({"last_affected": newest})
    return {"type": "SEMVER", "events": events, "database_specific": {"series": series}}


def record(advisory: Advisory, releases: dict[str, list[Release]] | None = None) -> dict:
    """The OSV record of one advisory (ranges prefetched: ``Advisory.objects.with_ranges()``)."""
    spans = sorted(advisory.ranges.all(), key=lambda r: r.series.sort_key)
    if releases is None:
        releases = releases_by_series({r.series.version for r in spans})
    severity = []
    if advisory.cvss_vector:
        severity.append({"type": "CVSS_V3", "score": advisory.cvss_vector})
    if advisory.cvss_v4_vector:
        severity.append({"type": "CVSS_V4", "score": advisory.cvss_v4_vector})
    ranges = [
        {
            "series": r.series.version,
            "introduced": r.introduced.version if r.introduced is not None else "0",
            "fixed": r.fixed.version if r.fixed is not None else None,
        }
        for r in spans
    ]
    in_words = "; ".join(
        f"{r['series']}: "
        + ("from the start of the series" if r["introduced"] == "0" else f"from {r['introduced']}")
        + (f" up to but not including {r['fixed']}" if r["fixed"] else ", no fixed release")
        for r in ranges
    )
    details = advisory.summary
    if in_words:
        details += f" Affected releases per series: {in_words}."
    database_specific = {
        "rating": advisory.rating,
        "cvss_v3_score": float(advisory.cvss_score),
        "component": advisory.component,
    }
    cwe_ids = sorted(set(CWE_ID.findall(advisory.cwe)), key=advisory.cwe.index)
    if cwe_ids:
        database_specific["cwe_ids"] = cwe_ids
    if advisory.reported_for:
        database_specific["reported_for"] = advisory.reported_for
    return {
        "schema_version": SCHEMA_VERSION,
        "id": advisory.advisory_id,
        "modified": _timestamp(advisory.modified),
        "published": _timestamp(datetime.combine(advisory.published, time(0), tzinfo=UTC)),
        "aliases": list(advisory.aliases),
        "summary": advisory.summary,
        "details": details,
        "severity": severity,
        "affected": [
            {
                "ranges": [semver_range(r, releases.get(r.series.version, [])) for r in spans],
                "versions": affected_tags(spans, releases),
                "database_specific": {
                    "product": "MariaDB Server",
                    "repo": REPOSITORY,
                    "component": advisory.component,
                    "versions_are": "upstream Git release tags of MariaDB/server (mariadb-X.Y.Z)",
                    "series_ranges": ranges,
                },
            }
        ],
        "references": [_reference(url) for url in [*advisory.references, *advisory.sources]],
        "database_specific": database_specific,
    }


def all_records() -> list[dict]:
    advisories = list(Advisory.objects.with_ranges().order_by("advisory_id"))
    releases = releases_by_series({r.series.version for a in advisories for r in a.ranges.all()})
    return [record(advisory, releases) for advisory in advisories]


def as_json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def zip_of(records: list[dict]) -> bytes:
    """One ``<id>.json`` per record, the layout OSV's bulk downloads use."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for data in records:
            modified = datetime.strptime(data["modified"], "%Y-%m-%dT%H:%M:%SZ")
            info = zipfile.ZipInfo(f"{data['id']}.json", date_time=modified.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, as_json(data))
    return buffer.getvalue()
