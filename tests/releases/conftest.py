from datetime import date

import pytest

from releases.demo import load_catalogue
from releases.repoconfig.models import Mirror
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory
from tests.releases.file_names import LINUX, MSI
from tests.shared_data import loaded_for_group


@pytest.fixture(scope="class")
def catalogue(django_db_setup, django_db_blocker):
    """Every real series and release (shared data), loaded once for a class of tests that
    read them; each test's own writes are rolled back after it."""
    with loaded_for_group(django_db_blocker, load_catalogue):
        yield


@pytest.fixture
def mirrors():
    """Two usable mirrors: AG DSN in Germany, OSUOSL in the United States."""
    Mirror.objects.create(mirror_id="agdsn", name="AG DSN, TU Dresden", country="DE",
                          base_url="https://ftp.agdsn.de/pub/mirrors/mariadb/")  # fmt: skip
    Mirror.objects.create(mirror_id="osuosl", name="Oregon State University Open Source Lab",
                          country="US", base_url="https://ftp.osuosl.org/pub/mariadb/")  # fmt: skip


@pytest.fixture
def demo_like(mirrors):
    """As in the demo: 12.3.3 has a Windows installer and the source; 11.8.9 the source
    and a Linux x86_64 tarball; 11.8.10 and the whole of 10.0 have no file here."""
    lts = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    release = ReleaseFactory(series=lts, version="12.3.3", release_date=date(2026, 8, 24))
    ReleaseFileFactory(release=release)
    ReleaseFileFactory(release=release, os="windows", architecture="x86_64", package_type="msi",
                       file_name=MSI, path=f"mariadb-12.3.3/winx64-packages/{MSI}")  # fmt: skip
    older = SeriesFactory(version="11.8", eol_date=date(2028, 6, 4))
    with_linux = ReleaseFactory(series=older, version="11.8.9", release_date=date(2026, 8, 10))
    ReleaseFileFactory(release=with_linux)
    ReleaseFileFactory(release=with_linux, os="linux", architecture="x86_64",
                       package_type="bintar", file_name=LINUX,
                       path=f"mariadb-11.8.9/bintar-linux-systemd-x86_64/{LINUX}")  # fmt: skip
    ReleaseFactory(series=older, version="11.8.10", release_date=date(2026, 11, 2))
    old = SeriesFactory(version="10.0", status="eol", eol_date=date(2019, 3, 31))
    ReleaseFactory(series=old, version="10.0.38", release_date=date(2019, 1, 29))
