from datetime import date

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from releases import tasks
from releases.models import DownloadCount
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db

FINGERPRINT = "177F 4010 FE56 CA33 3630 0305 F165 6F24 C74C D1D8"


@pytest.fixture
def lts(mirrors):
    series = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    release = ReleaseFactory(series=series, version="12.3.3", release_date=date(2026, 8, 24))
    source = ReleaseFileFactory(release=release, size=123_456_789,
                                signature_path="mariadb-12.3.3/source/mariadb-12.3.3.tar.gz.asc")  # fmt: skip
    name = "mariadb-12.3.3-winx64.msi"
    msi = ReleaseFileFactory(release=release, os="windows", architecture="x86_64", package_type="msi",
                             file_name=name, path=f"mariadb-12.3.3/winx64-packages/{name}", size=None)  # fmt: skip
    return release, source, msi


def test_each_file_has_size_checksum_signature_and_a_counted_download(
    client, lts, django_assert_max_num_queries
):
    _release, source, msi = lts
    with django_assert_max_num_queries(9):
        response = client.get("/download/")
    assertContains(
        response,
        f'<td data-label="SHA-256" class="checksum"><code id="sha256-{source.pk}">{source.sha256}</code> '
        f'<button type="button" class="button button-small button-secondary" data-copy-target="sha256-{source.pk}" '
        f'aria-label="Copy the SHA-256 of {source.file_name}">Copy</button></td>',
        html=True,
    )
    assertContains(response, '<td data-label="Size" class="num">117.7\xa0MB</td>', html=True)
    assertContains(
        response,
        '<td data-label="Size" class="num"><span class="muted">not recorded</span></td>',
        html=True,
    )
    assertContains(
        response,
        '<a href="https://ftp.agdsn.de/pub/mirrors/mariadb/mariadb-12.3.3/source/mariadb-12.3.3.tar.gz.asc">'
        '.asc<span class="visually-hidden"> signature of mariadb-12.3.3.tar.gz</span></a>',
        html=True,
    )
    assertContains(
        response,
        f'<a class="button button-small" href="/rest-api/mariadb/12.3.3/{msi.file_name}?mirror=agdsn">'
        f'Download<span class="visually-hidden"> {msi.file_name}</span></a>',
        html=True,
    )
    assertContains(response, FINGERPRINT)
    assertContains(response, f"gpg --verify {source.file_name}.asc {source.file_name}")
    assertContains(response, f'echo "{source.sha256}  {source.file_name}" | sha256sum -c -')
    assertContains(response, '<option value="x86_64">x86_64</option>', html=True)
    assertContains(response, "Downloads come from <strong>AG DSN, TU Dresden</strong> (DE)")
    # The script that preselects the OS is a static file (CSP: no inline script).
    assert b"<script>" not in response.content
    assertContains(response, 'src="/static/js/download.js"')


def test_previews_are_never_listed_as_supported(client, lts):
    SeriesFactory(version="13.1", status="preview", support_type="unannounced", eol_date=None)
    ReleaseFactory(series__version="13.1", version="13.1.0", maturity="preview")
    html = client.get("/download/").content.decode()
    supported = html[
        html.index('label="Supported"') : html.index('label="Previews (not for production)"')
    ]
    assert "MariaDB 12.3" in supported and "MariaDB 13.1" not in supported
    assert ">MariaDB 13.1 (stable)<" not in html
    index = client.get("/download/series/").content.decode()
    supported_part, rest = index.split('id="previews-title"')
    assert (
        ">MariaDB 13.1</a>" not in supported_part
        and ">MariaDB 13.1</a>" in rest.split('id="eol-title"')[0]
    )


def test_the_chosen_mirror_is_kept_across_pages(client, lts):
    first = client.get("/download/", {"mirror": "osuosl"})
    assert first.cookies["mirror"].value == "osuosl"
    assert first.cookies["mirror"]["httponly"]
    page = client.get("/download/12.3/12.3.3/")
    assertContains(
        page,
        '<option value="osuosl" selected>Oregon State University Open Source Lab (US)</option>',
        html=True,
    )
    assertContains(
        page, "https://ftp.osuosl.org/pub/mariadb/mariadb-12.3.3/source/mariadb-12.3.3.tar.gz.asc"
    )
    assert "private" in page["Cache-Control"]  # this visitor's page, never shared
    client.cookies["mirror"] = "no-such-mirror"
    assertContains(
        client.get("/download/12.3/12.3.3/"),
        '<option value="agdsn" selected>AG DSN, TU Dresden (DE)</option>',
        html=True,
    )


def test_downloads_are_counted_per_release_os_and_architecture_and_shown(client, lts):
    _release, source, msi = lts
    for _ in range(3):
        assert (
            client.get(
                f"/rest-api/mariadb/12.3.3/{msi.file_name}", {"mirror": "osuosl"}
            ).status_code
            == 302
        )
    client.get(f"/rest-api/mariadb/12.3.3/{source.file_name}", REMOTE_ADDR="203.0.113.9")
    client.get("/rest-api/mariadb/12.3.3/no-such-file.zip")
    assert tasks.flush_download_counts.delay().get() == {"moved": 4}
    counts = {(c.os, c.architecture): c.count for c in DownloadCount.objects.all()}
    assert counts == {("windows", "x86_64"): 3, ("source", ""): 1}
    assert {f.name for f in DownloadCount._meta.get_fields()} == {
        "id",
        "release",
        "os",
        "architecture",
        "day",
        "count",
    }
    page = client.get("/download/12.3/")
    assertContains(
        page,
        '<tr><td data-label="Release">12.3.3</td><td data-label="OS">Windows</td>'
        '<td data-label="Architecture">x86_64</td><td data-label="Downloads" class="num">3</td></tr>',
        html=True,
    )
    empty = client.get(f"/download/{SeriesFactory(version='11.4').version}/")
    assertContains(
        empty, "No download of a MariaDB 11.4 file through this site has been counted yet."
    )


def test_a_release_after_its_series_end_of_life_says_so(client, mirrors):
    series = SeriesFactory(version="10.6", status="eol", eol_date=date(2026, 7, 6))
    ReleaseFactory(series=series, version="10.6.24", release_date=date(2026, 5, 1))
    late = ReleaseFactory(series=series, version="10.6.25", release_date=date(2026, 8, 24))
    page = client.get(late.get_absolute_url())
    assertContains(page, "Published after the end of life of MariaDB 10.6")
    assertNotContains(page, "reached its end of life on")
    before = client.get("/download/10.6/10.6.24/")
    assertContains(before, "reached its end of life on 6 July 2026")
    assertNotContains(before, "Published after the end of life")


def test_a_file_built_for_no_architecture_matches_any_architecture(client, lts):
    """The page's script preselects x86_64; choosing "Source code" must still show the
    source tarball, which has no architecture."""
    _release, source, _msi = lts
    response = client.get("/download/", {"os": "source", "arch": "x86_64"})
    assertContains(response, f'<code class="wrap">{source.file_name}</code>', html=True)
    assertNotContains(response, "No files match this choice.")
    windows = client.get("/download/", {"arch": "aarch64", "os": "windows"})
    assertContains(windows, "No files match this choice.")
