"""Data several tests read and none changes for good, loaded once for a group of tests.

``loaded_for_group(django_db_blocker, load)`` runs ``load()`` inside a transaction that
is rolled back when the group ends; each test of the group runs in a savepoint inside it
(pytest-django), so what one test writes is gone before the next. Files the load writes
go to a media folder of the group's own, which the group's tests see as MEDIA_ROOT
(``group_media_root``, read by the ``_media_in_tmp`` fixture) and which is removed after.

Use it from a fixture of class scope for tests that only read what ``load()`` made (the
demo content, the benchmark runs), with those tests in one class. A plain module (not
conftest) so that tests import it explicitly."""

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.db import transaction
from django.test import override_settings

_media_roots: list[Path] = []


def group_media_root() -> Path | None:
    return _media_roots[-1] if _media_roots else None


@contextmanager
def loaded_for_group(django_db_blocker, load):
    media = Path(tempfile.mkdtemp(prefix="group-media-"))
    _media_roots.append(media)
    try:
        with override_settings(MEDIA_ROOT=media), django_db_blocker.unblock(), transaction.atomic():
            yield load()
            transaction.set_rollback(True)
    finally:
        _media_roots.pop()
        shutil.rmtree(media, ignore_errors=True)
