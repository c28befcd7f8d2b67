"""Reading the foundation's release archive: a local copy (rsync) or a mirror over HTTP.

The layout is ``mariadb-X.Y.Z/<directory>/<file>``, directories such as ``source``,
``bintar-linux-systemd-x86_64`` and ``winx64-packages``, each with ``sha256sums.txt``
(and ``md5sums.txt``, ``sha1sums.txt``, ``sha512sums.txt``) and a detached ``.asc``
signature beside each file. ``scan_release`` turns one release's directories into
``FileRecord``s and a list of problems; it writes nothing.
"""

import hashlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import requests
from django.conf import settings

from core import numbers
from releases.release_files import DIGEST_LENGTHS, HEX, FileRecord, classify

CHECKSUM_FILES = {name: f"{name}sums.txt" for name in DIGEST_LENGTHS}
SIGNATURE_LIMIT = 64 * 1024  # an armoured detached signature is under 1 KiB


class ArchiveError(Exception):
    """The archive cannot be read at all (wrong path, mirror down)."""


class LocalArchive:
    """A directory holding ``mariadb-X.Y.Z/`` directories."""

    verifies = True

    def __init__(self, root):
        self.root = Path(root)
        if not self.root.is_dir():
            raise ArchiveError(f"{root} is not a directory")
        self.label = str(self.root)

    def _path(self, relative):
        return self.root / relative

    def list_dir(self, relative) -> list[str] | None:
        """Entry names (directories end with "/"), or None when there is no such directory."""
        path = self._path(relative)
        if not path.is_dir():
            return None
        return sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir())

    def read_text(self, relative, limit=1024 * 1024) -> str | None:
        path = self._path(relative)
        if not path.is_file() or path.stat().st_size > limit:
            return None
        return path.read_text(encoding="utf-8", errors="replace")

    def size(self, relative) -> int | None:
        path = self._path(relative)
        return path.stat().st_size if path.is_file() else None

    def sha256(self, relative) -> str:
        digest = hashlib.sha256()
        with open(self._path(relative), "rb") as handle:
            for block in iter(lambda: handle.read(1024 * 1024), b""):
                digest.update(block)
        return digest.hexdigest()


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.extend(value for name, value in attrs if name == "href" and value)


class HttpArchive:
    """A mirror's base URL serving directory index pages (Apache, nginx autoindex,
    ``python -m http.server``). Files are not downloaded: their size comes from a HEAD
    request and their digests from the checksum files, so nothing is verified locally."""

    verifies = False

    def __init__(self, base_url, timeout=None, session=None):
        self.base = base_url if base_url.endswith("/") else base_url + "/"
        self.timeout = timeout or settings.RELEASE_ARCHIVE_TIMEOUT
        self.session = session or requests.Session()
        self.label = self.base

    def _get(self, relative, method="GET"):
        try:
            response = self.session.request(
                method, urljoin(self.base, relative), timeout=self.timeout, allow_redirects=True
            )
        except requests.RequestException as error:
            raise ArchiveError(f"{self.base}{relative}: {type(error).__name__}") from error
        if response.status_code == 404:
            return None
        if response.status_code >= 400:
            raise ArchiveError(f"{self.base}{relative}: HTTP {response.status_code}")
        return response

    def list_dir(self, relative) -> list[str] | None:
        response = self._get(relative)
        if response is None:
            return None
        parser = _Links()
        parser.feed(response.text)
        names = set()
        for href in parser.hrefs:
            path = urlsplit(href).path
            if urlsplit(href).netloc or path.startswith(("/", "..", "?")) or not path:
                continue
            name = unquote(path)
            if "/" not in name.rstrip("/"):
                names.add(name)
        return sorted(names)

    def read_text(self, relative, limit=1024 * 1024) -> str | None:
        response = self._get(relative)
        if response is None or len(response.content) > limit:
            return None
        return response.text

    def size(self, relative) -> int | None:
        response = self._get(relative, method="HEAD")
        length = response.headers.get("Content-Length") if response is not None else None
        return int(length) if numbers.is_ascii_integer(length) else None


def open_archive(location):
    if location.startswith(("http://", "https://")):
        return HttpArchive(location)
    return LocalArchive(location)


def parse_checksums(text, digest_name) -> dict[str, str]:
    """``<hex digest>  <file name>`` lines (``sha256sum`` output, ``*name`` in binary mode)."""
    digests = {}
    for line in (text or "").splitlines():
        digest, _, name = line.strip().partition(" ")
        name = name.strip().lstrip("*")
        digest = digest.lower()
        if name and len(digest) == DIGEST_LENGTHS[digest_name] and HEX.match(digest):
            digests[name.rpartition("/")[2]] = digest
    return digests


@dataclass
class ReleaseScan:
    version: str
    records: list[FileRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    found: bool = True


def scan_release(archive, version) -> ReleaseScan:
    """Every listable file of one release with its published digests and signature."""
    scan = ReleaseScan(version)
    top = f"mariadb-{version}/"
    directories = archive.list_dir(top)
    if directories is None:
        scan.found = False
        return scan
    for directory in (name for name in directories if name.endswith("/")):
        names = archive.list_dir(top + directory) or []
        files = [(n, classify(n, directory.rstrip("/"))) for n in names if not n.endswith("/")]
        files = [(n, kind) for n, kind in files if kind is not None]
        if not files:
            continue
        digests = {}
        for digest_name, list_name in CHECKSUM_FILES.items():
            text = archive.read_text(top + directory + list_name) if list_name in names else None
            digests[digest_name] = parse_checksums(text, digest_name)
        if "sha256sums.txt" not in names:
            scan.problems.append(
                f"{top}{directory}: no sha256sums.txt; its files are recorded without SHA-256"
            )
        for name, (os_, architecture, package_type) in files:
            path = top + directory + name
            sha256 = digests["sha256"].get(name, "")
            if archive.verifies and sha256 and archive.sha256(path) != sha256:
                scan.problems.append(
                    f"MISMATCH {path}: its SHA-256 differs from sha256sums.txt; not recorded"
                )
                continue
            signature_path = path + ".asc" if name + ".asc" in names else ""
            signature = archive.read_text(signature_path, SIGNATURE_LIMIT) if signature_path else ""
            scan.records.append(
                FileRecord(
                    release=version,
                    file_name=name,
                    path=path,
                    os=os_,
                    architecture=architecture,
                    package_type=package_type,
                    size=archive.size(path),
                    **{
                        digest_name: digests[digest_name].get(name, "")
                        for digest_name in DIGEST_LENGTHS
                    },
                    signature_path=signature_path,
                    signature=(signature or "").strip()
                    if "BEGIN PGP SIGNATURE" in (signature or "")
                    else "",
                    sources=(f"archive {archive.label}",),
                )
            )
    return scan
