import pytest

from releases.demo import load_catalogue
from security import demo
from tests.shared_data import loaded_for_group


def load_catalogue_and_advisories():
    load_catalogue()
    demo.load(lambda line: None)


@pytest.fixture(scope="class")
def advisories(django_db_setup, django_db_blocker):
    """Every real series and release and every advisory of the in-repo file, loaded once
    for a class of tests that read them; each test's own writes are rolled back after it."""
    with loaded_for_group(django_db_blocker, load_catalogue_and_advisories):
        yield
