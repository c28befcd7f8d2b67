"""Data several tests read and none changes for good, loaded once for a group of tests.

``loaded_for_group(django_db_blocker, load)`` runs ``load()`` inside a transaction that
is rolled back when the group ends; each test of the group runs in a savepoint inside it
(pytest-django), so what one test writes is gone before the next. Files the load writes
go to upload folders of the group's own, which the group's tests see as MEDIA_ROOT and
PRIVATE_MEDIA_ROOT (``group_upload_roots``, read by the ``_media_in_tmp`` fixture) and
which are removed after.

Use it from a fixture of class scope for tests that only read what ``load()`` made (the
demo content, the benchmark runs), with those tests in one class. A plain module (not
conftest) so that tests import it explicitly."""

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.db import transaction
from django.test import override_settings

_upload_roots: list[tuple[Path, Path]] = []


def group_upload_roots() -> tuple[Path, Path] | None:
    """(MEDIA_ROOT, PRIVATE_MEDIA_ROOT) of the group being loaded or run, if any."""
    return _upload_roots[-1] if _upload_roots else None


@contextmanager
def loaded_for_group(django_db_blocker, load):
    folder = Path(tempfile.mkdtemp(prefix="group-media-"))
    roots = (folder / "media", folder / "private-media")
    _upload_roots.append(roots)
    try:
        with (
            override_settings(MEDIA_ROOT=roots[0], PRIVATE_MEDIA_ROOT=roots[1]),
            django_db_blocker.unblock(),
            transaction.atomic(),
        ):
            yield load()
            transaction.set_rollback(True)
    finally:
        _upload_roots.pop()
        shutil.rmtree(folder, ignore_errors=True)
