import pytest
from django.apps import apps
from django.core.management import call_command

from search.models import SearchDocument

pytestmark = pytest.mark.django_db

PROJECT_APPS = {
    "foundation",
    "sponsors",
    "releases",
    "repoconfig",
    "feedback",
    "trends",
    "benchmarks",
    "search",
}


def project_row_counts():
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in PROJECT_APPS
    }


def load_demo(capture_commits):
    """As on a real database: what each app's loader defers to its commit runs."""
    with capture_commits(execute=True):
        call_command("load_demo", verbosity=0)


@pytest.fixture(scope="module")
def demo_loaded(demo_database):
    """The database ``load_demo`` filled once for the test process (tests/shared_data.py);
    the test's second load is rolled back after it."""
    with demo_database.in_use():
        yield


@pytest.mark.usefixtures("demo_loaded")
def test_load_demo_fills_the_site_and_is_idempotent(client, django_capture_on_commit_callbacks):
    first = project_row_counts()
    assert first["foundation.NewsPost"] > 0
    assert first["releases.Release"] > 0
    # The index is rebuilt at the end (search.demo), from everything, with its vectors.
    kinds = set(SearchDocument.objects.values_list("kind", flat=True))
    assert kinds == set(SearchDocument.Kind.values)
    assert not SearchDocument.objects.filter(vector__isnull=True).exists()

    load_demo(django_capture_on_commit_callbacks)
    assert project_row_counts() == first

    home = client.get("/").content.decode()
    assert "No news has been published yet." not in home
    assert "No releases have been published yet." not in home
