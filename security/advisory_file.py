"""The advisories file (``security/data/mariadb-security-advisories.json``): read and checked.

Pure: no database. ``parse_advisories`` turns the decoded JSON into plain records or
raises ``AdvisoryFileError`` naming the first problem, so a bad file changes nothing. The
file's notes (``mariadb-security-advisories.md`` beside it) say how it was compiled.
"""

import json
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

from security.cvss import VectorError, read_vector
from security.ranges import version_key

IN_REPO_ADVISORIES = Path(__file__).resolve().parent / "data" / "mariadb-security-advisories.json"
ADVISORY_ID = re.compile(r"^CVE-[0-9]{4}-[0-9]{4,7}$")
RATINGS = {"LOW", "MEDIUM", "HIGH", "CRITICAL"}
BASES = {"mariadb-ghsa", "mariadb-docs", "cve-record", "nvd"}
RELEASE = re.compile(r"^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,4}$")
# "introduced": "0" in the file: from the start of the series.
FROM_THE_START = "0"


class AdvisoryFileError(ValueError):
    pass


@dataclass(frozen=True)
class RangeRecord:
    series: str
    introduced: str | None  # None: from the start of the series
    fixed: str | None  # None: no release of the series is fixed
    basis: str


@dataclass(frozen=True)
class AdvisoryRecord:
    advisory_id: str
    aliases: list
    published: date
    summary: str
    component: str
    rating: str
    cvss_score: Decimal
    cvss_vector: str
    cvss_v4_vector: str
    cvss_v4_score: Decimal | None
    rating_source: str
    vector_source: str
    cwe: str
    reported_for: str
    third_party_component: bool
    references: list
    sources: list
    note: str
    ranges: list[RangeRecord]
    # When the file last stated these facts (its "compiled" day): the advisory's
    # ``modified`` when the import creates it or changes it with them.
    stated_on: date | None = None


def _release(value, series: str, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not RELEASE.match(value):
        raise AdvisoryFileError(f"{where}: {value!r} is not a release like 10.6.26")
    if value.rpartition(".")[0] != series:
        raise AdvisoryFileError(f"{where}: {value} is not a release of {series}")
    return value


def _range(raw: dict, where: str) -> RangeRecord:
    series = raw.get("series")
    if not isinstance(series, str) or not re.match(r"^[0-9]{1,3}\.[0-9]{1,3}$", series):
        raise AdvisoryFileError(f"{where}: {series!r} is not a series like 10.6")
    where = f"{where} {series}"
    introduced = raw.get("introduced")
    introduced = None if introduced == FROM_THE_START else _release(introduced, series, where)
    fixed = _release(raw.get("fixed"), series, where)
    if introduced and fixed and not version_key(introduced) < version_key(fixed):
        raise AdvisoryFileError(f"{where}: fixed {fixed} is not after introduced {introduced}")
    if raw.get("basis") not in BASES:
        raise AdvisoryFileError(
            f"{where}: basis {raw.get('basis')!r} is not one of {sorted(BASES)}"
        )
    return RangeRecord(series, introduced, fixed, raw["basis"])


def _advisory(raw: dict, stated_on: date | None = None) -> AdvisoryRecord:
    advisory_id = raw.get("id", "")
    if not isinstance(advisory_id, str) or not ADVISORY_ID.match(advisory_id):
        raise AdvisoryFileError(f"{advisory_id!r} is not an id like CVE-2026-44171")
    severity = raw.get("severity") or {}
    if severity.get("rating") not in RATINGS:
        raise AdvisoryFileError(f"{advisory_id}: rating {severity.get('rating')!r}")
    vector = severity.get("cvss_v3_vector") or ""
    if vector:
        try:
            read_vector(vector)
        except VectorError as error:
            raise AdvisoryFileError(f"{advisory_id}: {error}") from error
    try:
        published = date.fromisoformat(raw["published"])
        score = Decimal(str(severity["cvss_v3_score"]))
    except (KeyError, TypeError, ValueError) as error:
        raise AdvisoryFileError(f"{advisory_id}: {error}") from error
    ranges = [_range(entry, advisory_id) for entry in raw.get("affected") or []]
    if len({entry.series for entry in ranges}) != len(ranges):
        raise AdvisoryFileError(f"{advisory_id}: a series is listed twice")
    v4_score = severity.get("cvss_v4_score")
    return AdvisoryRecord(
        advisory_id=advisory_id,
        aliases=list(raw.get("aliases") or []),
        published=published,
        summary=raw.get("summary") or "",
        component=raw.get("component") or "",
        rating=severity["rating"],
        cvss_score=score,
        cvss_vector=vector,
        cvss_v4_vector=severity.get("cvss_v4_vector") or "",
        cvss_v4_score=None if v4_score is None else Decimal(str(v4_score)),
        rating_source=severity.get("rating_source") or "",
        vector_source=severity.get("vector_source") or "",
        cwe=raw.get("cwe") or "",
        reported_for=raw.get("reported_for") or "",
        third_party_component=bool(raw.get("third_party_component")),
        references=list(raw.get("references") or []),
        sources=list(raw.get("sources") or []),
        note=raw.get("note") or "",
        ranges=ranges,
        stated_on=stated_on,
    )


def parse_advisories(data) -> list[AdvisoryRecord]:
    if not isinstance(data, dict) or not isinstance(data.get("advisories"), list):
        raise AdvisoryFileError("the file has no list of advisories")
    try:
        stated_on = date.fromisoformat(data["compiled"]) if data.get("compiled") else None
    except (TypeError, ValueError):
        raise AdvisoryFileError(
            f"compiled: {data['compiled']!r} is not a day like 2026-11-27"
        ) from None
    records = [_advisory(raw, stated_on) for raw in data["advisories"]]
    ids = [record.advisory_id for record in records]
    if len(set(ids)) != len(ids):
        raise AdvisoryFileError("an advisory is listed twice")
    return records


def read_file(path) -> list[AdvisoryRecord]:
    """The records of the file at ``path``; ``AdvisoryFileError`` for anything unreadable."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise AdvisoryFileError(f"cannot read it ({error.strerror}).") from error
    except json.JSONDecodeError as error:
        raise AdvisoryFileError(f"it is not JSON ({error}).") from error
    return parse_advisories(data)
