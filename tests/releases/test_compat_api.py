from datetime import date

import pytest

from releases.demo import load_catalogue
from releases.models import ReleaseFile, Series
from releases.repoconfig.models import Mirror
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory
from tests.releases.mariadb_rest_client import docker_image_versions, get_json, plan_download

pytestmark = pytest.mark.django_db


@pytest.fixture
def mirrors():
    Mirror.objects.create(mirror_id="osuosl", name="Oregon State University Open Source Lab",
                          country="US", base_url="https://ftp.osuosl.org/pub/mariadb/")  # fmt: skip
    Mirror.objects.create(mirror_id="agdsn", name="AG DSN", country="DE",
                          base_url="https://ftp.agdsn.de/pub/mirrors/mariadb/")  # fmt: skip


def linux_file(release):
    name = f"mariadb-{release.version}-linux-systemd-x86_64.tar.gz"
    return ReleaseFileFactory(release=release, os="linux", architecture="x86_64", package_type="bintar",
                              file_name=name, path=f"mariadb-{release.version}/bintar-linux-systemd-x86_64/{name}",
                              signature_path=f"mariadb-{release.version}/bintar-linux-systemd-x86_64/{name}.asc")  # fmt: skip


def test_major_releases_shape_and_facts(client):
    load_catalogue()
    body = client.get("/rest-api/mariadb/").json()
    majors = {m["release_id"]: m for m in body["major_releases"]}
    assert len(majors) == 31
    assert majors["11.4"] == {"release_id": "11.4", "release_name": "MariaDB Server 11.4",
                              "release_status": "Stable", "release_support_type": "Long Term Support",
                              "release_eol_date": "2029-05-29"}  # fmt: skip
    # The live service's support words, from the catalogue's support field.
    assert majors["12.3"]["release_support_type"] == "Long Term Support"
    assert majors["12.2"]["release_support_type"] == "Rolling"
    assert majors["13.0"]["release_support_type"] == "Rolling"
    assert majors["11.2"]["release_support_type"] == "Short Term Support"
    assert majors["13.1"]["release_support_type"] is None  # not announced yet
    assert majors["10.0"]["release_status"] == "Old Stable"
    assert majors["13.1"]["release_status"] == "Preview"
    assert [m["release_id"] for m in body["major_releases"]][:3] == ["13.1", "13.0", "12.3"]


def test_series_release_and_latest_shapes(client, mirrors, django_assert_max_num_queries):
    series = SeriesFactory(version="11.4")
    older = ReleaseFactory(series=series, version="11.4.9", release_date=date(2025, 11, 6))
    newer = ReleaseFactory(series=series, version="11.4.10", release_date=date(2026, 2, 4))
    file = linux_file(newer)
    file.signature = "-----BEGIN PGP SIGNATURE-----\n...\n-----END PGP SIGNATURE-----"
    file.save()
    ReleaseFileFactory(release=newer)  # the source tarball
    for version in range(11, 30):  # the query count does not grow with releases or files
        ReleaseFileFactory(release=ReleaseFactory(series=series, version=f"11.4.{version}"))
    with django_assert_max_num_queries(5):
        listing = client.get("/rest-api/mariadb/11.4/").json()
    assert list(listing["releases"])[-2:] == ["11.4.10", "11.4.9"]
    entry = listing["releases"]["11.4.10"]
    assert entry["date_of_release"] == "2026-02-04"
    assert entry["release_name"] == "MariaDB Server 11.4.10"
    # No notes written here: the Knowledge Base's (test_publishing_truth.py has both cases).
    assert entry["release_notes_url"] == "https://mariadb.com/kb/en/mariadb-11-4-10-release-notes/"
    assert (entry["files_pending"], entry["files_note"]) == (False, None)
    linux = next(f for f in entry["files"] if f["os"] == "Linux")
    name = "mariadb-11.4.10-linux-systemd-x86_64.tar.gz"
    assert linux == {
        "file_id": file.pk,
        "file_name": name,
        "package_type": "gzipped tar file",
        "os": "Linux",
        "cpu": "x86_64",
        "checksum": {"md5sum": file.md5, "sha1sum": file.sha1, "sha256sum": file.sha256,
                     "sha512sum": file.sha512},
        "signature": "-----BEGIN PGP SIGNATURE-----\n...\n-----END PGP SIGNATURE-----",
        "checksum_url": f"http://testserver/rest-api/mariadb/11.4.10/{name}/checksum/",
        "signature_url": "https://ftp.agdsn.de/pub/mirrors/mariadb/" + file.signature_path,
        "file_download_url": f"http://testserver/rest-api/mariadb/11.4.10/{name}",
    }  # fmt: skip
    assert len(file.md5) == 32 and len(file.sha1) == 40
    assert {f["os"] for f in entry["files"]} == {"Linux", "Source"}
    one = client.get("/rest-api/mariadb/11.4.9/").json()
    assert list(one) == ["release_data"] and list(one["release_data"]) == ["11.4.9"]
    assert older.version in one["release_data"]
    with django_assert_max_num_queries(5):
        latest = client.get("/rest-api/mariadb/11.4/latest/").json()
    assert list(latest["releases"]) == ["11.4.29"]
    # The live API is also called without the trailing slash.
    assert client.get("/rest-api/mariadb/11.4").json() == listing


def test_os_and_cpu_filters_and_their_refusals(client, mirrors):
    release = ReleaseFactory(version="11.4.10")
    linux_file(release)
    ReleaseFileFactory(release=release)
    only_linux = client.get("/rest-api/mariadb/11.4.10/", {"os": "linux", "cpu": "amd64"}).json()
    assert [f["file_name"] for f in only_linux["release_data"]["11.4.10"]["files"]] == [
        "mariadb-11.4.10-linux-systemd-x86_64.tar.gz"]  # fmt: skip
    assert (
        client.get("/rest-api/mariadb/11.4.10/", {"os": "Windows"}).json()["release_data"][
            "11.4.10"
        ]["files"]
        == []
    )
    refused = client.get("/rest-api/mariadb/11.4.10/", {"os": "Plan9"})
    assert refused.status_code == 400 and refused.json()["error"].startswith("os:")
    assert client.get("/rest-api/mariadb/11.4.10/", {"cpu": "\x00"}).status_code == 400
    for missing in ["/rest-api/mariadb/9.9/", "/rest-api/mariadb/9.9.9/", "/rest-api/mariadb/eleven/",
                    "/rest-api/mariadb/11.4.10/latest/", "/rest-api/mariadb/11.4.10/nope.tar.gz",
                    "/rest-api/mariadb/999999/checksum/"]:  # fmt: skip
        assert client.get(missing).status_code == 404, missing


def test_checksum_download_and_mirrors(client, mirrors):
    file = linux_file(ReleaseFactory(version="11.4.10"))
    by_name = client.get(f"/rest-api/mariadb/11.4.10/{file.file_name}/checksum/").json()
    assert by_name == {"response": {"checksum": {"md5sum": file.md5, "sha1sum": file.sha1, "sha256sum": file.sha256,
                                                 "sha512sum": file.sha512}}}  # fmt: skip
    assert client.get(f"/rest-api/mariadb/{file.pk}/checksum/").json() == by_name
    assert client.get(f"/rest-api/mariadb/11.4.10/{file.file_name}/checksum").json() == by_name
    download = client.get(f"/rest-api/mariadb/11.4.10/{file.file_name}", {"mirror": "osuosl"})
    assert download.status_code == 302
    assert download["Location"] == "https://ftp.osuosl.org/pub/mariadb/" + file.path
    assert client.get(f"/rest-api/mariadb/11.4.10/{file.pk}")["Location"].startswith(
        "https://ftp.agdsn.de/"
    )
    assert (
        client.get(f"/rest-api/mariadb/11.4.10/{file.file_name}", {"mirror": "gone"}).status_code
        == 400
    )
    mirrors_body = client.get("/rest-api/mirrors/").json()
    assert mirrors_body["mirror_list"]["US"] == [{"mirror_id": "osuosl", "mirror_name": "Oregon State University Open Source Lab",
                                                  "mirror_url": "https://ftp.osuosl.org/pub/mariadb/", "country": "US"}]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_client_written_for_the_live_api_runs_unchanged(live_server, mirrors):
    load_catalogue()
    # The real Windows installer of the newest LTS release, as recorded from winget.
    file = ReleaseFile.objects.get(file_name="mariadb-12.3.3-winx64.msi")
    plan = plan_download(live_server.url, os_name="Windows", cpu="x86_64")
    assert plan == {"series": "12.3", "version": "12.3.3", "date": "2026-08-24", "file": file.file_name,
                    "sha256": file.sha256, "checksum_endpoint_sha256": file.sha256, "mirror": "agdsn",
                    "location": "https://ftp.agdsn.de/pub/mirrors/mariadb/" + file.path}  # fmt: skip
    assert file.sha256 == "811a38a862c1c55325b6ba8a757b381923e51dee4fe3cde95887b0ae2490c02d"


@pytest.mark.django_db(transaction=True)
def test_the_clients_keep_working_through_a_publish_without_files(live_server, mirrors):
    """Issue 49: a stable release published before its files (11.8.10 and 12.3.4 here) is
    listed, marked files_pending, but `latest` and the first entry of each series stay
    the newest release with files, so scripts download what is there."""
    load_catalogue()
    before = docker_image_versions(live_server.url)
    for version in ["11.8.10", "12.3.4"]:
        ReleaseFactory(series=Series.objects.get(version=version[:4]), version=version,
                       release_date=date(2026, 11, 20), files_pending=True)  # fmt: skip
    after = docker_image_versions(live_server.url)
    assert after == before
    assert (after["11.8"], after["12.3"], after["11.4"]) == ("11.8.9", "12.3.3", "11.4.13")
    plan = plan_download(live_server.url, os_name="Windows", cpu="x86_64")
    assert (plan["version"], plan["file"]) == ("12.3.3", "mariadb-12.3.3-winx64.msi")
    listing = get_json(f"{live_server.url}/rest-api/mariadb/12.3/")["releases"]
    # newest first by number, the release whose files are on their way left out of the
    # listing; it answers at its own address, marked
    assert list(listing) == ["12.3.3", "12.3.2", "12.3.1", "12.3.0"]
    pending = get_json(f"{live_server.url}/rest-api/mariadb/12.3.4/")["release_data"]["12.3.4"]
    assert pending["files_pending"] is True and pending["files"] == []


def test_a_file_built_for_no_architecture_matches_any_cpu(client, mirrors):
    release = ReleaseFactory(version="11.4.10")
    linux_file(release)
    source = ReleaseFileFactory(release=release)
    body = client.get("/rest-api/mariadb/11.4/latest/", {"os": "Source", "cpu": "x86_64"}).json()
    assert [f["file_name"] for f in body["releases"]["11.4.10"]["files"]] == [source.file_name]
    both = client.get("/rest-api/mariadb/11.4.10/", {"cpu": "aarch64"}).json()
    assert [f["file_name"] for f in both["release_data"]["11.4.10"]["files"]] == [source.file_name]


def test_every_path_answers_with_and_without_its_trailing_slash(client, mirrors):
    """As docs/releases.md promises: no redirect, the same answer."""
    file = linux_file(ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.10"))
    for with_slash in [f"/rest-api/mariadb/{file.pk}/checksum/",
                       f"/rest-api/mariadb/11.4.10/{file.file_name}/checksum/",
                       "/rest-api/mariadb/11.4/latest/", "/rest-api/mariadb/11.4.10/",
                       "/rest-api/mirrors/", "/api/releases/11.4/latest/"]:  # fmt: skip
        answer, without = client.get(with_slash), client.get(with_slash.rstrip("/"))
        assert (answer.status_code, without.status_code) == (200, 200), with_slash
        assert answer.json() == without.json(), with_slash


def test_every_api_lists_a_series_newest_version_first_by_number(client, mirrors):
    """Issue 60: /rest-api/mariadb/11.4/ listed 11.4.13 before 11.4.99 while /api/releases/
    listed 11.4.99 first. One order: by number, newest first (11.4.13 after 11.4.9)."""
    series = SeriesFactory(version="11.4")
    for patch, has_files in [(9, True), (13, True), (2, True), (99, False), (10, False)]:
        made = ReleaseFactory(
            series=series, version=f"11.4.{patch}", release_date=date(2026, 1, patch % 28 + 1)
        )
        if has_files:
            linux_file(made)  # fmt: skip
    expected = ["11.4.99", "11.4.13", "11.4.10", "11.4.9", "11.4.2"]
    assert list(client.get("/rest-api/mariadb/11.4/").json()["releases"]) == expected
    own = client.get("/api/releases/11.4/").json()["releases"]
    assert [r["version"] for r in own] == expected
    # `latest` is still the newest a script can download
    assert list(client.get("/rest-api/mariadb/11.4/latest/").json()["releases"]) == ["11.4.13"]


def test_a_files_signature_is_never_null_beside_its_address(client, mirrors):
    """Issue 60: "signature": null beside a signature_url. The signature is its armoured
    text where it was read, else where to fetch it; null only without one."""
    release = ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.13")
    unread = linux_file(release)
    read = ReleaseFileFactory(release=release, signature_path="mariadb-11.4.13/source/mariadb-11.4.13.tar.gz.asc",
                              signature="-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n")  # fmt: skip
    none = ReleaseFileFactory(release=release, file_name="notes.zip", path="mariadb-11.4.13/source/notes.zip",
                              signature_path="")  # fmt: skip
    files = {
        f["file_name"]: f
        for f in client.get("/rest-api/mariadb/11.4.13/").json()["release_data"]["11.4.13"]["files"]
    }
    url = files[unread.file_name]["signature_url"]
    assert url.startswith("https://") and url.endswith(unread.signature_path)
    assert files[unread.file_name]["signature"] == url
    mirror = url.removesuffix(unread.signature_path)
    assert files[read.file_name]["signature"] == read.signature
    assert files[read.file_name]["signature_url"] == mirror + read.signature_path
    assert (files[none.file_name]["signature"], files[none.file_name]["signature_url"]) == (
        None,
        None,
    )
    page = client.get(release.get_absolute_url()).content.decode()
    assert f'href="{mirror}{unread.signature_path}"' in page
