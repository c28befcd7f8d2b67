"""Release files: the records every importer hands to ``services.record_release_files``,
and the compiled file list ``releases/data/mariadb-release-files.json`` (real files with
checksums taken from public packaging recipes, each with its source).

Pure: no database. ``parse_release_files`` raises ``CatalogueError`` naming the first
problem, so a bad file changes nothing.
"""

import re
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from django.core.exceptions import ValidationError

from releases.catalogue import (
    Catalogue,
    CatalogueError,
    ReleaseFacts,
    SeriesFacts,
    parse_catalogue,
    series_of,
)

IN_REPO_FILES = Path(__file__).resolve().parent / "data" / "mariadb-release-files.json"
# Source tarballs with their sizes, each pair copied from a ports distinfo file.
IN_REPO_SIZES = Path(__file__).resolve().parent / "data" / "mariadb-release-file-sizes.json"

HEX = re.compile(r"^[0-9a-f]+$")
DIGEST_LENGTHS = {"md5": 32, "sha1": 40, "sha256": 64, "sha512": 128}

# The file list's words -> ReleaseFile.OS and ReleaseFile.PackageType values.
OS_VALUES = {"Source": "source", "Linux": "linux", "Windows": "windows"}
PACKAGE_VALUES = {"source": "tar.gz", "bintar": "bintar", "msi": "msi", "zip": "zip"}

# Facts about releases after the catalogue's snapshot that its "later_releases" entries do
# not carry, each read from the MariaDB documentation (the source is named).
LATER_SERIES = {
    "13.0": SeriesFacts(
        # "MariaDB 13.0 is a rolling release"; 13.0.2 is its Stable (GA) release of
        # 2026-09-15: mariadb-corporation/mariadb-docs
        # release-notes/community-server/13.0/13.0.2.md@294182314d06debb603ca24977833557884c28d0
        version="13.0",
        ga_date=date(2026, 9, 15),
        eol_date=None,
        enterprise_eos_date=None,
        long_term=False,
        support_type="rolling",
    ),
}


@dataclass(frozen=True)
class FileRecord:
    """One file of one release as an importer found it. Empty digests are unknown."""

    release: str
    file_name: str
    path: str
    os: str
    architecture: str
    package_type: str
    size: int | None = None
    md5: str = ""
    sha1: str = ""
    sha256: str = ""
    sha512: str = ""
    signature_path: str = ""
    signature: str = ""
    sources: tuple[str, ...] = field(default_factory=tuple)

    @property
    def digests(self):
        return {name: getattr(self, name) for name in DIGEST_LENGTHS}


def classify(file_name: str, directory: str) -> tuple[str, str, str] | None:
    """(OS, architecture, package type) of a file in an archive directory such as
    ``source``, ``bintar-linux-systemd-x86_64`` or ``winx64-packages``; None for files the
    portal does not list (debug symbols, checksum lists, signatures, repositories)."""
    if file_name.endswith((".asc", ".txt", ".sig")) or "debug" in file_name:
        return None
    if directory == "source" and file_name.endswith(".tar.gz"):
        return "source", "", "tar.gz"
    if directory.startswith("bintar-linux") and file_name.endswith((".tar.gz", ".tar.xz")):
        return "linux", directory.rsplit("-", 1)[-1], "bintar"
    if directory in ("winx64-packages", "win32-packages"):
        architecture = "x86_64" if directory == "winx64-packages" else "x86"
        if file_name.endswith(".msi"):
            return "windows", architecture, "msi"
        if file_name.endswith(".zip"):
            return "windows", architecture, "zip"
    return None


def check_digest(name: str, value: str, where: str) -> str:
    value = (value or "").lower()
    if value and (len(value) != DIGEST_LENGTHS[name] or not HEX.match(value)):
        raise CatalogueError(f"{where}: {name} must be {DIGEST_LENGTHS[name]} hex digits")
    return value


def _later_release(item, index, stable_series) -> ReleaseFacts | None:
    """The release as stable, or None when nothing known says it is."""
    where = f"later_releases[{index}]"
    version = str(item.get("version", "")) if isinstance(item, dict) else ""
    try:
        series_version = series_of(version)
        released = date.fromisoformat(item.get("date") or "")
    except (ValidationError, TypeError, ValueError):
        raise CatalogueError(f"{where}: needs a version like 11.4.13 and a date") from None
    known_stable = (
        "Stable (GA)" in item.get("note", "")
        or series_version in stable_series
        or (series_version in LATER_SERIES and LATER_SERIES[series_version].ga_date <= released)
    )
    if not known_stable:
        return None
    return ReleaseFacts(version, series_version, released, "ga")


@dataclass(frozen=True)
class ReleaseFileList:
    files: list[FileRecord]
    later_releases: list[ReleaseFacts]
    skipped_later: list[str] = field(default_factory=list)


def parse_release_files(data, stable_series=frozenset()) -> ReleaseFileList:
    """The compiled file list. ``stable_series``: series that already have a GA release
    (a later point release of such a series is stable too)."""
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise CatalogueError('expected an object with a "files" list')
    files, seen = [], set()
    for index, item in enumerate(data["files"]):
        where = f"files[{index}]"
        if not isinstance(item, dict):
            raise CatalogueError(f"{where}: expected an object")
        try:
            series_of(str(item.get("release", "")))
        except ValidationError:
            raise CatalogueError(
                f"{where}: release {item.get('release')!r} is not a version"
            ) from None
        file_name, path = str(item.get("file_name", "")), str(item.get("path", ""))
        if not file_name or not path.endswith("/" + file_name) or ".." in path:
            raise CatalogueError(f"{where}: path must be relative and end with the file name")
        if item.get("os") not in OS_VALUES or item.get("kind") not in PACKAGE_VALUES:
            raise CatalogueError(
                f"{where}: unknown os {item.get('os')!r} or kind {item.get('kind')!r}"
            )
        key = (item["release"], file_name)
        if key in seen:
            raise CatalogueError(f"{where}: {file_name} is listed twice")
        seen.add(key)
        size = item.get("size")
        if size is not None and (not isinstance(size, int) or size <= 0):
            raise CatalogueError(f"{where}: size must be a positive number of bytes")
        sha256 = check_digest("sha256", item.get("sha256", ""), where)
        if not sha256:
            raise CatalogueError(f"{where}: every listed file carries its sha256")
        files.append(
            FileRecord(
                release=item["release"],
                file_name=file_name,
                path=path,
                os=OS_VALUES[item["os"]],
                architecture="" if item["cpu"] == "source" else str(item["cpu"]),
                package_type=PACKAGE_VALUES[item["kind"]],
                size=size,
                sha256=sha256,
                # The archive signs every file with a detached .asc beside it.
                signature_path=path + ".asc",
                sources=tuple(str(source) for source in item.get("sources", [])),
            )
        )
    later, skipped = [], []
    for index, item in enumerate(data.get("later_releases", [])):
        facts = _later_release(item, index, stable_series)
        if facts is None:
            skipped.append(item["version"])
        else:
            later.append(facts)
    return ReleaseFileList(files=files, later_releases=later, skipped_later=skipped)


def join_sizes(files: list[FileRecord], sizes_data) -> list[FileRecord]:
    """The file list with the sizes file joined in: a source tarball both list gets the
    size (their SHA-256 must agree), one only the sizes file lists is added at the
    archive's path ``mariadb-X.Y.Z/source/<name>``, with its source."""
    if not isinstance(sizes_data, dict) or not isinstance(sizes_data.get("files"), list):
        raise CatalogueError('sizes: expected an object with a "files" list')
    by_key = {(f.release, f.file_name): index for index, f in enumerate(files)}
    joined = list(files)
    for index, item in enumerate(sizes_data["files"]):
        where = f"sizes files[{index}]"
        if not isinstance(item, dict):
            raise CatalogueError(f"{where}: expected an object")
        release, file_name = str(item.get("release", "")), str(item.get("file_name", ""))
        try:
            series_of(release)
        except ValidationError:
            raise CatalogueError(f"{where}: release {release!r} is not a version") from None
        if file_name != f"mariadb-{release}.tar.gz":
            raise CatalogueError(f"{where}: only source tarballs mariadb-X.Y.Z.tar.gz are listed")
        size, sha256 = item.get("size"), check_digest("sha256", item.get("sha256", ""), where)
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0 or not sha256:
            raise CatalogueError(f"{where}: needs a positive size in bytes and its sha256")
        source = str(item.get("source", ""))
        known = by_key.get((release, file_name))
        if known is not None:
            record = joined[known]
            if record.sha256 != sha256 or record.size not in (None, size):
                raise CatalogueError(f"{where}: {file_name} disagrees with the file list")
            sources = record.sources + ((source,) if source not in record.sources else ())
            joined[known] = replace(record, size=size, sources=sources)
            continue
        path = f"mariadb-{release}/source/{file_name}"
        by_key[(release, file_name)] = len(joined)
        joined.append(
            FileRecord(
                release=release,
                file_name=file_name,
                path=path,
                os="source",
                architecture="",
                package_type="tar.gz",
                size=size,
                sha256=sha256,
                signature_path=path + ".asc",
                sources=(source,) if source else (),
            )
        )
    return joined


def read_real_data(
    catalogue_data, files_data, sizes_data=None
) -> tuple[Catalogue, ReleaseFileList]:
    """The catalogue with the file list's later releases (and their series) added, and the
    file list itself, with the sizes file joined in when given."""
    catalogue = parse_catalogue(catalogue_data)
    stable_series = frozenset(r.series for r in catalogue.releases if r.maturity == "ga")
    file_list = parse_release_files(files_data, stable_series)
    if sizes_data is not None:
        file_list = replace(file_list, files=join_sizes(file_list.files, sizes_data))
    known_releases = {r.version for r in catalogue.releases}
    known_series = {s.version for s in catalogue.series}
    added = [r for r in file_list.later_releases if r.version not in known_releases]
    extra_series = [
        facts
        for version, facts in LATER_SERIES.items()
        if version not in known_series and any(r.series == version for r in added)
    ]
    extended = Catalogue(
        series=[*catalogue.series, *extra_series], releases=[*catalogue.releases, *added]
    )
    return extended, file_list
