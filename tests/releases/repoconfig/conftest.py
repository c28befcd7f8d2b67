import pytest

from releases.repoconfig import demo
from tests.shared_data import loaded_for_group


def load_seed():
    demo.load(log=lambda message: None)


@pytest.fixture
def seeded(db):
    load_seed()


@pytest.fixture(scope="module")
def seeded_for_module(django_db_setup, django_db_blocker):
    """The seed loaded once for a module whose every test reads it
    (``pytest.mark.usefixtures("seeded_for_module")`` in its ``pytestmark``); what a test
    writes is rolled back after it (tests/shared_data.py)."""
    with loaded_for_group(django_db_blocker, load_seed):
        yield
