"""What counts as the project's own code, for tests that compare it with its docs and rules."""

import subprocess
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


def tracked_files(pattern: str) -> list[Path]:
    """The repository's files matching a git pathspec such as ``*.py``: what is committed or
    staged, never a virtualenv, a build or a test artifact lying in the checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", pattern],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted(ROOT / name for name in listed if (ROOT / name).is_file())
