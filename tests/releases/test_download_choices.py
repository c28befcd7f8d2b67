"""/download/ names a choice in the address that it cannot honour, and what it shows
instead, rather than showing the default as if nothing had been asked."""

from datetime import date

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db
MSI = "mariadb-12.3.3-winx64.msi"


@pytest.fixture
def two_series(mirrors):
    series = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    release = ReleaseFactory(series=series, version="12.3.3", release_date=date(2026, 8, 24))
    ReleaseFileFactory(release=release, size=123_456_789)
    ReleaseFileFactory(
        release=release,
        os="windows",
        architecture="x86_64",
        package_type="msi",
        file_name=MSI,
        path=f"mariadb-12.3.3/winx64-packages/{MSI}",
    )
    ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.2")


def notice(*lines):
    paragraphs = "".join(f"<p>{line}</p>" for line in lines)
    return f'<div class="notice" role="status" id="ignored-choices">{paragraphs}</div>'


def test_an_unknown_series_is_named_with_the_series_shown_instead(client, two_series):
    response = client.get("/download/", {"series": "99.9"})
    assert response.status_code == 200
    assertContains(
        response,
        notice("There is no published series “99.9”: showing MariaDB 12.3 instead."),
        html=True,
    )


def test_a_release_of_another_series_is_named_with_the_release_shown_instead(client, two_series):
    response = client.get("/download/", {"series": "12.3", "release": "11.4.2"})
    assertContains(
        response,
        notice("“11.4.2” is not a published release of MariaDB 12.3: showing 12.3.3 instead."),
        html=True,
    )


def test_an_unknown_mirror_is_named_with_the_mirror_used_instead(client, two_series):
    response = client.get("/download/", {"mirror": "nope"})
    assertContains(
        response,
        notice(
            "“nope” is not a mirror that is answering: downloads come from "
            "AG DSN, TU Dresden (DE) instead."
        ),
        html=True,
    )
    assert "mirror" not in response.cookies


def test_an_unknown_os_is_ignored_and_every_file_is_listed(client, two_series):
    response = client.get("/download/", {"os": "beos"})
    assertContains(
        response,
        notice(
            "“beos” is not an operating system on offer: showing the files for every "
            "operating system."
        ),
        html=True,
    )
    assertNotContains(response, "No files match")
    assertContains(response, f'<code class="wrap">{MSI}</code>', html=True)
    assertContains(response, '<option value="windows">Windows</option>', html=True)


def test_unknown_architecture_and_package_are_named_together(client, two_series):
    response = client.get("/download/", {"arch": "m68k", "package": "deb", "series": "99.9"})
    assertContains(
        response,
        notice(
            "There is no published series “99.9”: showing MariaDB 12.3 instead.",
            "“m68k” is not an architecture on offer: showing every architecture.",
            "“deb” is not a package type on offer: showing every package type.",
        ),
        html=True,
    )
    assertContains(response, f'<code class="wrap">{MSI}</code>', html=True)


def test_choices_that_exist_get_no_notice_and_a_long_value_is_cut_short(client, two_series):
    valid = {
        "series": "12.3",
        "release": "12.3.3",
        "os": "windows",
        "arch": "amd64",
        "package": "msi",
        "mirror": "osuosl",
    }
    response = client.get("/download/", valid)
    assertNotContains(response, 'id="ignored-choices"')
    # Debian's name for x86_64 chooses it, as in the release API.
    assertContains(response, '<option value="x86_64" selected>x86_64</option>', html=True)
    assertContains(response, f'<code class="wrap">{MSI}</code>', html=True)
    response = client.get("/download/", {"series": "9" * 100})
    assertContains(
        response,
        notice(f"There is no published series “{'9' * 39}…”: showing MariaDB 12.3 instead."),
        html=True,
    )
