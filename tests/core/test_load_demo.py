import pytest
from django.apps import apps
from django.core.management import call_command

pytestmark = pytest.mark.django_db

PROJECT_APPS = {
    "foundation",
    "sponsors",
    "releases",
    "repoconfig",
    "feedback",
    "trends",
    "benchmarks",
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


def test_load_demo_fills_the_site_and_is_idempotent(client, django_capture_on_commit_callbacks):
    load_demo(django_capture_on_commit_callbacks)
    first = project_row_counts()
    assert first["foundation.NewsPost"] > 0
    assert first["releases.Release"] > 0

    load_demo(django_capture_on_commit_callbacks)
    assert project_row_counts() == first

    home = client.get("/").content.decode()
    assert "No news has been published yet." not in home
    assert "No releases have been published yet." not in home
