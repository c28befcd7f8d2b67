import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from foundation.models import NewsPost
from releases import demo
from releases.catalogue import IN_REPO_CATALOGUE, CatalogueError
from releases.models import Release, ReleaseFile, Series
from releases.release_files import IN_REPO_FILES, IN_REPO_SIZES, join_sizes, parse_release_files
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db


def run(path, *options):
    out = StringIO()
    call_command("import_releases", str(path), *options, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_imports_every_real_series_and_release_then_changes_nothing():
    first = run(IN_REPO_CATALOGUE)
    assert "series: 31 created, 0 updated, 0 unchanged" in first  # 29 listed + 13.0, 13.1 previews
    # 478 in the catalogue + 11.4.13, 11.8.9, 12.3.3 and 13.0.2 from the file list
    assert "releases: 482 created, 0 updated, 0 unchanged" in first
    # 48 in the file list + 32 source tarballs only the sizes file lists
    assert "files: 80 created, 0 updated, 0 unchanged" in first
    assert Release.objects.count() == 482
    later = Release.objects.get(version="12.3.3")
    assert (later.maturity, later.release_date) == ("ga", date(2026, 8, 24))
    rolling = Series.objects.get(version="13.0")
    assert (rolling.status, rolling.support_type, rolling.first_release_date) == (
        "stable",
        "rolling",
        date(2026, 9, 15),
    )
    assert Series.objects.get(version="12.2").support_type == "rolling"
    assert Series.objects.get(version="11.2").support_type == "short-term"
    lts = Series.objects.get(version="11.4")
    assert (lts.support_type, lts.first_release_date, lts.eol_date, lts.enterprise_eos_date) == (
        "long-term",
        date(2024, 5, 29),
        date(2029, 5, 29),
        date(2033, 1, 16),
    )
    assert Series.objects.get(version="10.0").status == "eol"
    assert Series.objects.get(version="13.1").support_type == "unannounced"
    assert Series.objects.get(version="13.1").status == "preview"
    assert Release.objects.get(version="10.0.10").version_patch == 10
    second = run(IN_REPO_CATALOGUE)
    assert "series: 0 created, 0 updated, 31 unchanged" in second
    assert "releases: 0 created, 0 updated, 482 unchanged" in second
    assert "files: 0 created, 0 updated, 80 unchanged" in second


def test_updates_what_changed_and_never_deletes(tmp_path):
    data = json.loads(IN_REPO_CATALOGUE.read_text())
    data["releases"] = [r for r in data["releases"] if r["version"].startswith("11.4.")]
    data["series"] = [s for s in data["series"] if s["series"] == "11.4"]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    staff_release = ReleaseFactory(series=SeriesFactory(version="9.9"), version="9.9.1",
                                   release_notes="Kept.")  # fmt: skip
    wrong = ReleaseFactory(series=SeriesFactory(version="11.4", eol_date=None), version="11.4.2",
                           maturity="rc", release_date=date(2000, 1, 1), release_notes="Staff notes")  # fmt: skip
    out = run(path)
    # 11.4.13, 11.8.9 (stable by its note) and 13.0.2 (with its series) from the file list
    assert "series: 2 created, 1 updated, 0 unchanged" in out
    assert "releases: 15 created, 1 updated, 0 unchanged" in out
    assert "later releases left out, their maturity is not known: 12.3.3" in out
    assert "1 releases in the database are not in the file (kept)" in out
    wrong.refresh_from_db()
    assert (wrong.maturity, wrong.release_date, wrong.release_notes) == (
        "ga",
        date(2024, 5, 29),
        "Staff notes",
    )
    assert Release.objects.filter(pk=staff_release.pk).exists()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "is not JSON"),
        ('{"series": [], "releases": [{"version": "11.4", "date": "2024-01-01", "maturity": "stable"}]}',
         "is not a version like 10.11.9"),
        ('{"series": [], "releases": [{"version": "11.4.1", "date": "2024-13-01", "maturity": "stable"}]}',
         "is not a date"),
        ('{"series": [], "releases": [{"version": "11.4.1", "date": "2024-01-01", "maturity": "gold"}]}',
         "maturity 'gold' is not one of"),
        ('{"releases": []}', 'expected an object with "series" and "releases" lists'),
    ],
)  # fmt: skip
def test_a_bad_file_is_refused_with_its_reason_and_changes_nothing(tmp_path, content, reason):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=reason):
        run(path)
    assert not Release.objects.exists()
    with pytest.raises(CommandError, match="Cannot read"):
        run(tmp_path / "missing.json")


def test_a_changed_checksum_is_updated_and_reported(tmp_path):
    run(IN_REPO_CATALOGUE)
    data = json.loads(IN_REPO_FILES.read_text())
    entry = next(f for f in data["files"] if f["file_name"] == "mariadb-12.3.2-winx64.msi")
    old, entry["sha256"] = entry["sha256"], "0" * 64
    changed = tmp_path / "files.json"
    changed.write_text(json.dumps(data))
    out = run(IN_REPO_CATALOGUE, "--files", str(changed))
    assert "files: 0 created, 1 updated, 79 unchanged" in out
    assert f"CHANGED 12.3.2/mariadb-12.3.2-winx64.msi: sha256 {old} -> {'0' * 64}" in out
    assert ReleaseFile.objects.get(file_name="mariadb-12.3.2-winx64.msi").sha256 == "0" * 64


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ({"sha256": "abc"}, "sha256 must be 64 hex digits"),
        ({"path": "../etc/mariadb-12.3.2-winx64.msi"}, "path must be relative"),
        ({"os": "BeOS"}, "unknown os 'BeOS'"),
        ({"sha256": ""}, "every listed file carries its sha256"),
    ],
)
def test_a_bad_file_list_is_refused_and_changes_nothing(tmp_path, entry, reason):
    data = json.loads(IN_REPO_FILES.read_text())
    data["files"][0].update(entry)
    path = tmp_path / "files.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match=reason):
        run(IN_REPO_CATALOGUE, "--files", str(path))
    assert not Release.objects.exists()


def test_demo_keeps_the_seed_alpha_announcement_and_lists_only_real_files():
    demo.load(log=lambda message: None)
    demo.load(log=lambda message: None)
    alpha = Release.objects.get(version="10.0.3")
    assert alpha.maturity == "alpha"
    assert alpha.announcement == NewsPost.objects.get(slug="mariadb-10-0-3-released")
    assert "fourth release in the MariaDB 10.0 series" in alpha.release_notes
    assert Release.objects.count() == 482
    listed = json.loads(IN_REPO_FILES.read_text())["files"]
    sized = {
        (row["release"], row["file_name"]): row
        for row in json.loads(IN_REPO_SIZES.read_text())["files"]
    }
    assert len(sized) == 40
    assert (
        ReleaseFile.objects.count()
        == len({(e["release"], e["file_name"]) for e in listed} | set(sized))
        == 80
    )
    for entry in listed:
        file = ReleaseFile.objects.get(
            release__version=entry["release"], file_name=entry["file_name"]
        )
        size_row = sized.get((entry["release"], entry["file_name"]))
        assert (file.path, file.sha256, file.size) == (
            entry["path"],
            entry["sha256"],
            entry.get("size") or (size_row["size"] if size_row else None),
        )
        assert file.sources.splitlines()[: len(entry["sources"])] == entry["sources"]
    # Every size of the sizes file is on its file, with the distinfo it was read from.
    for (version, name), row in sized.items():
        file = ReleaseFile.objects.get(release__version=version, file_name=name)
        assert (file.size, file.sha256, file.path) == (
            row["size"],
            row["sha256"],
            f"mariadb-{version}/source/{name}",
        )
        assert row["source"] in file.sources.splitlines()
    # Only SHA-256 digests are known from the public sources: nothing else is filled in.
    assert not ReleaseFile.objects.exclude(md5="", sha1="", sha512="").exists()
    msi = ReleaseFile.objects.get(file_name="mariadb-12.3.2-winx64.msi")
    assert (msi.os, msi.architecture, msi.package_type) == ("windows", "x86_64", "msi")


SIZE_ROW = {"release": "10.11.3", "file_name": "mariadb-10.11.3.tar.gz", "size": 96761750,
            "sha256": "a" * 64, "source": "freebsd/freebsd-ports:databases/mariadb1011-server/distinfo@x"}  # fmt: skip


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"sha256": "b" * 64}, "disagrees with the file list"),
        ({"size": 1}, "disagrees with the file list"),
        ({"size": 0}, "positive size"),
        ({"size": "96761750"}, "positive size"),
        ({"file_name": "mariadb-10.11.3-winx64.msi"}, "only source tarballs"),
        ({"release": "10.11"}, "is not a version"),
    ],
)
def test_a_size_that_disagrees_or_is_malformed_is_refused(change, reason):
    files = parse_release_files({"files": [
        {"release": "10.11.3", "file_name": "mariadb-10.11.3.tar.gz", "kind": "source",
         "path": "mariadb-10.11.3/source/mariadb-10.11.3.tar.gz", "os": "Source", "cpu": "source",
         "sha256": "a" * 64, "size": 96761750, "sources": ["nixpkgs"]}]}).files  # fmt: skip
    assert join_sizes(files, {"files": [SIZE_ROW]})[0].size == 96761750
    with pytest.raises(CatalogueError, match=reason):
        join_sizes(files, {"files": [SIZE_ROW | change]})
