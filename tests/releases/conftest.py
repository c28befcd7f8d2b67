import pytest

from releases.demo import load_catalogue
from tests.shared_data import loaded_for_group


@pytest.fixture(scope="class")
def catalogue(django_db_setup, django_db_blocker):
    """Every real series and release (shared data), loaded once for a class of tests that
    read them; each test's own writes are rolled back after it."""
    with loaded_for_group(django_db_blocker, load_catalogue):
        yield
