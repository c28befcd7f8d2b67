"""What counts as the project's own code, for tests that compare it with its docs and rules."""

from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR).resolve()


def project_app_configs():
    """The apps in this repository, not those installed in a virtualenv inside it."""
    return [
        config
        for config in apps.get_app_configs()
        if Path(config.path).resolve().is_relative_to(ROOT)
        and "site-packages" not in Path(config.path).parts
    ]
