import pytest

from releases.demo import load_catalogue
from releases.repoconfig.models import Mirror
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
