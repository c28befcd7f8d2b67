import hashlib
import re
import socket
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from releases.models import ReleaseFile
from tests.releases.archive_tree import (
    SIGNATURE,
    build_archive,
    digest,
    http_mirror,
    write_directory,
)
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db


def run(location, *options):
    out, err = StringIO(), StringIO()
    call_command("import_release_files", str(location), *options, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def releases():
    series = SeriesFactory(version="11.4")
    return ReleaseFactory(series=series, version="11.4.5"), ReleaseFactory(
        series=series, version="11.4.6"
    )


def test_a_local_archive_is_recorded_verified_and_reimported_without_change(tmp_path, releases):
    data = build_archive(tmp_path)
    out, err = run(tmp_path)
    assert "releases scanned: 2, found in the archive: 1, files seen: 4" in out
    assert "files: 4 created, 0 updated, 0 unchanged" in out
    aarch64 = (
        "mariadb-11.4.5/bintar-linux-systemd-aarch64/mariadb-11.4.5-linux-systemd-aarch64.tar.gz"
    )
    assert f"MISMATCH {aarch64}: its SHA-256 differs from sha256sums.txt; not recorded" in out
    assert "mariadb-11.4.5/winx64-packages/: no sha256sums.txt" in out
    assert "2 problems" in err
    recorded = {f.file_name: f for f in ReleaseFile.objects.filter(release__version="11.4.5")}
    # The corrupt file and the debug symbols are not listed; nothing of 11.4.6 was found.
    assert sorted(recorded) == ["mariadb-11.4.5-linux-systemd-x86_64.tar.gz", "mariadb-11.4.5-winx64.msi",
                                "mariadb-11.4.5-winx64.zip", "mariadb-11.4.5.tar.gz"]  # fmt: skip
    linux = recorded["mariadb-11.4.5-linux-systemd-x86_64.tar.gz"]
    body = data[linux.file_name]
    assert (linux.os, linux.architecture, linux.package_type, linux.size) == (
        "linux",
        "x86_64",
        "bintar",
        len(body),
    )
    assert (linux.md5, linux.sha1, linux.sha256, linux.sha512) == tuple(
        digest(name, body) for name in ("md5", "sha1", "sha256", "sha512"))  # fmt: skip
    assert linux.path == "mariadb-11.4.5/bintar-linux-systemd-x86_64/" + linux.file_name
    assert (linux.signature_path, linux.signature) == (linux.path + ".asc", SIGNATURE)
    msi = recorded["mariadb-11.4.5-winx64.msi"]
    assert (msi.os, msi.architecture, msi.package_type) == ("windows", "x86_64", "msi")
    assert (msi.sha256, msi.md5) == ("", digest("md5", data[msi.file_name]))
    assert recorded["mariadb-11.4.5.tar.gz"].architecture == ""

    again, _ = run(tmp_path)
    assert "files: 0 created, 0 updated, 4 unchanged" in again

    # A rebuilt file with new checksums is updated, and the change is named.
    rebuilt = {"mariadb-11.4.5.tar.gz": b"rebuilt source"}
    write_directory(tmp_path / "mariadb-11.4.5" / "source", rebuilt)
    changed, _ = run(tmp_path, "--release", "11.4.5")
    assert "files: 0 created, 1 updated, 3 unchanged" in changed
    new_sha = hashlib.sha256(b"rebuilt source").hexdigest()
    assert (
        f"CHANGED 11.4.5/mariadb-11.4.5.tar.gz: sha256 {digest('sha256', data['mariadb-11.4.5.tar.gz'])} -> {new_sha}"
        in changed
    )
    assert ReleaseFile.objects.get(file_name="mariadb-11.4.5.tar.gz").sha256 == new_sha


def test_a_mirror_over_http_gives_the_same_files_with_published_digests(tmp_path, releases):
    data = build_archive(tmp_path)
    with http_mirror(tmp_path) as base_url:
        out, _ = run(base_url, "--release", "11.4.5")
        again, _ = run(base_url, "--release", "11.4.5")
    assert "files: 5 created, 0 updated, 0 unchanged" in out
    assert "files: 0 created, 0 updated, 5 unchanged" in again
    # Over HTTP nothing is downloaded, so the published digest of the corrupt copy stands.
    assert "MISMATCH" not in out
    linux = ReleaseFile.objects.get(file_name="mariadb-11.4.5-linux-systemd-x86_64.tar.gz")
    assert (linux.size, linux.sha256, linux.signature) == (
        len(data[linux.file_name]), digest("sha256", data[linux.file_name]), SIGNATURE)  # fmt: skip


def test_an_unreachable_mirror_or_unknown_release_changes_nothing(tmp_path, releases):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(CommandError, match=re.escape("Cannot read the archive: http://127.0.0.1")):
        run(f"http://127.0.0.1:{port}/")
    with pytest.raises(CommandError, match=re.escape("Release 11.4.99 is not in the catalogue")):
        run(tmp_path, "--release", "11.4.99")
    with pytest.raises(CommandError, match="is not a release version"):
        run(tmp_path, "--release", "../etc")
    with pytest.raises(CommandError, match="is not a directory"):
        run(tmp_path / "missing")
    assert not ReleaseFile.objects.exists()
