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
    assertContains(response, '<td data-label="Size" class="num">117.7\xa0MiB</td>', html=True)
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
    ReleaseFileFactory(
        release=ReleaseFactory(series__version="13.1", version="13.1.0", maturity="preview")
    )
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
    # A real architecture the release has no file for is not offered: every one is shown.
    windows = client.get("/download/", {"arch": "aarch64", "os": "windows"})
    assertContains(
        windows, "MariaDB 12.3.3 has no Windows file built for aarch64: showing every architecture."
    )
    assertNotContains(windows, "No files match this choice.")


def gpg_recipe(release, file, key_url, fingerprint):
    return (
        f'<pre id="verify-gpg-{release.version}" tabindex="0" aria-label="Commands that check the signature">'
        f"<code>curl -fsSL {key_url} | gpg --import\n"
        f"gpg --fingerprint {fingerprint.replace(' ', '')}\n"
        f"gpg --verify {file.file_name}.asc {file.file_name}</code></pre>"
    )


def test_the_gpg_recipe_fetches_the_key_that_signed_the_release(client, lts):
    """Files released until the end of 2022 were signed with the older package key: the
    recipe for such a release must import that key, not today's."""
    new_release, new_source, _msi = lts
    series = SeriesFactory(version="10.6", eol_date=date(2026, 7, 6))
    old_release = ReleaseFactory(series=series, version="10.6.3", release_date=date(2021, 7, 5))
    old_source = ReleaseFileFactory(release=old_release)
    old_page = client.get("/download/10.6/10.6.3/")
    old_key = "1993 69E5 404B D5FC 7D2F E43B CBCB 082A 1BB9 43DB"
    assertContains(old_page, gpg_recipe(old_release, old_source,
                   "https://supplychain.mariadb.com/MariaDB-Server-GPG-KEY-2010", old_key), html=True)  # fmt: skip
    assertContains(old_page, "was signed with the <strong>MariaDB Package Signing Key</strong>")
    assertContains(old_page, f"Files released since 1 January 2023 are signed with the MariaDB Signing Key, <code class=\"wrap\">{FINGERPRINT}</code>.")  # fmt: skip
    new_page = client.get("/download/12.3/12.3.3/")
    assertContains(new_page, gpg_recipe(new_release, new_source,
                   "https://mariadb.org/mariadb_release_signing_key.asc", FINGERPRINT), html=True)  # fmt: skip
    assertContains(new_page, f"Files released until 31 December 2022 were signed with the older MariaDB Package Signing Key, <code class=\"wrap\">{old_key}</code>.")  # fmt: skip


def test_the_signing_key_changes_on_the_first_day_of_2023():
    from releases.signing_keys import key_for

    assert key_for(date(2022, 12, 31)).name == "MariaDB Package Signing Key"
    assert key_for(date(2023, 1, 1)).name == "MariaDB Signing Key"


def test_with_no_usable_mirror_the_page_says_why_there_are_no_links(client, lts):
    from releases.repoconfig.models import Mirror

    Mirror.objects.update(healthy=False)
    for url in ["/download/", "/download/12.3/12.3.3/"]:
        page = client.get(url)
        assertContains(
            page,
            '<div class="notice" role="status" id="no-mirror"><strong>No download links right now:</strong> '
            "none of the mirrors answered its last health check. Try again later; the sizes and "
            "checksums below still let you check a copy you get elsewhere.</div>",
            html=True,
        )
        assertNotContains(page, "/rest-api/mariadb/12.3.3/")
