"""The release catalogue file (``releases/data/mariadb-releases.json``): read and checked.

Pure: no database. ``parse_catalogue`` turns the decoded JSON into plain records or raises
``CatalogueError`` naming the first problem, so a bad file changes nothing.
"""

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from django.core.exceptions import ValidationError

from releases.versions import SERIES_VERSION, parse_release_version

IN_REPO_CATALOGUE = Path(__file__).resolve().parent / "data" / "mariadb-releases.json"

# The file's maturity words -> Release.Maturity values.
MATURITIES = {"stable": "ga", "rc": "rc", "beta": "beta", "alpha": "alpha", "preview": "preview"}


# The file's support words (the mariadb.org downloads API's release_support_type) ->
# Series.SupportType values.
SUPPORT_TYPES = {
    "Long Term Support": "long-term",
    "Short Term Support": "short-term",
    "Rolling": "rolling",
}


class CatalogueError(ValueError):
    pass


@dataclass(frozen=True)
class SeriesFacts:
    version: str
    ga_date: date | None
    eol_date: date | None
    enterprise_eos_date: date | None
    long_term: bool
    support_type: str | None = None


@dataclass(frozen=True)
class ReleaseFacts:
    version: str
    series: str
    release_date: date
    maturity: str


@dataclass(frozen=True)
class Catalogue:
    series: list[SeriesFacts]
    releases: list[ReleaseFacts]


def series_of(version: str) -> str:
    major, minor, _ = parse_release_version(version)
    return f"{major}.{minor}"


def _date(value, where):
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise CatalogueError(f"{where}: {value!r} is not a date like 2024-05-29") from None


def parse_catalogue(data) -> Catalogue:
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("series"), list)
        or not isinstance(data.get("releases"), list)
    ):
        raise CatalogueError('expected an object with "series" and "releases" lists')
    series, seen = [], set()
    for index, item in enumerate(data["series"]):
        where = f"series[{index}]"
        if not isinstance(item, dict) or not SERIES_VERSION.match(str(item.get("series", ""))):
            raise CatalogueError(f"{where}: needs a series such as 11.4")
        if item["series"] in seen:
            raise CatalogueError(f"{where}: series {item['series']} is listed twice")
        seen.add(item["series"])
        support = item.get("support")
        if support is not None and support not in SUPPORT_TYPES:
            raise CatalogueError(
                f"{where}: support {support!r} is not one of {', '.join(SUPPORT_TYPES)}"
            )
        series.append(
            SeriesFacts(
                version=item["series"],
                ga_date=_date(item.get("ga_date"), where),
                eol_date=_date(item.get("eol"), where),
                enterprise_eos_date=_date(item.get("eoes"), where),
                long_term=bool(item.get("lts")),
                support_type=SUPPORT_TYPES.get(support),
            )
        )
    releases, seen = [], set()
    for index, item in enumerate(data["releases"]):
        where = f"releases[{index}]"
        if not isinstance(item, dict):
            raise CatalogueError(f"{where}: expected an object")
        version = str(item.get("version", ""))
        try:
            series_version = series_of(version)
        except ValidationError:
            raise CatalogueError(f"{where}: {version!r} is not a version like 10.11.9") from None
        if version in seen:
            raise CatalogueError(f"{where}: release {version} is listed twice")
        seen.add(version)
        if item.get("maturity") not in MATURITIES:
            raise CatalogueError(
                f"{where}: maturity {item.get('maturity')!r} is not one of {', '.join(MATURITIES)}"
            )
        released = _date(item.get("date"), where)
        if released is None:
            raise CatalogueError(f"{where}: release {version} has no date")
        releases.append(
            ReleaseFacts(version, series_version, released, MATURITIES[item["maturity"]])
        )
    return Catalogue(series=series, releases=releases)
