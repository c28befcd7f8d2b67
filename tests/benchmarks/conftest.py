import pytest

from benchmarks import demo as benchmarks_demo
from tests.shared_data import loaded_for_group


@pytest.fixture(scope="class")
def demo(django_db_setup, django_db_blocker):
    """The seed-derived benchmark suites and runs, loaded once for a class (or a module
    whose tests all read them); each test's own writes are rolled back after it."""
    with loaded_for_group(django_db_blocker, lambda: benchmarks_demo.load(log=lambda m: None)):
        yield
