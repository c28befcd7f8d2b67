"""Data several tests read and none changes for good, loaded once for a group of tests.

``loaded_for_group(django_db_blocker, load)`` runs ``load()`` inside a transaction that
is rolled back when the group ends; each test of the group runs in a savepoint inside it
(pytest-django), so what one test writes is gone before the next. Files the load writes
go to upload folders of the group's own, which the group's tests see as MEDIA_ROOT and
PRIVATE_MEDIA_ROOT (``group_upload_roots``, read by the ``_media_in_tmp`` fixture) and
which are removed after.

Use it from a fixture of class scope for tests that only read what ``load()`` made (the
demo content, the benchmark runs), with those tests in one class. A plain module (not
conftest) so that tests import it explicitly.

The whole demo content (``manage.py load_demo``, some 10 s) is loaded once per run
instead, into a database of its own: ``DemoDatabase`` (the ``demo_database`` fixture of
tests/conftest.py) copies the process's migrated, empty test database (PostgreSQL's CREATE
DATABASE ... TEMPLATE) the first time a group asks for it, loads the demo into the copy
and commits it; in a parallel run the first worker to ask does so, and every other
worker copies that database and its upload folders (a second or two) instead of loading
its own; ``in_use()`` then points the connection at
the copy for a group (a module or a class of tests that only read the demo content: each
test's writes are rolled back as usual) and back at the test database after it. A test
that commits (a live server's) gets a copy of that copy of its own, ``copy_in_use()``
(the ``demo_content_committed`` fixture), a file copy that takes a second or two."""

import fcntl
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.test import override_settings

_upload_roots: list[tuple[Path, Path]] = []
# In a parallel run, the demo database the first worker loaded, which the others copy
# (named in this file of the run's shared folder; the controller drops it at the end).
DEMO_READY = "demo-database.ready"


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


def worker() -> str:
    """This pytest-xdist worker's name (gw0, ...), or "" in a serial run."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


@contextmanager
def locked(path: Path):
    """An exclusive lock on a file, shared by the run's processes."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def drop_shared_demo(shared_folder: Path) -> None:
    """At the end of a parallel run (the controller): the demo database the workers copied."""
    ready = shared_folder / DEMO_READY
    if not ready.exists():
        return
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{ready.read_text()}" WITH (FORCE)')
    ready.unlink()
    shutil.rmtree(shared_folder / "demo-media", ignore_errors=True)


def copy_database(source: str, target: str) -> None:
    """CREATE DATABASE target TEMPLATE source. PostgreSQL refuses while anyone else is
    connected to the source: only this test process uses its databases, and between
    groups only the connections of threads a test started and left (they are never
    closed) can be there, so they are ended."""
    for attempt in range(10):
        try:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
                cursor.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')
            return
        except OperationalError:
            if attempt == 9:
                raise
            with connection._nodb_cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    [source],
                )
            time.sleep(0.2)


class DemoDatabase:
    """This test process's copy of its test database with the demo content committed in it
    (see the module's docstring); made on first use, dropped by ``drop()``."""

    def __init__(self, django_db_blocker, shared_folder: Path | None = None):
        self.blocker = django_db_blocker
        self.shared_folder = shared_folder
        self.test_name = connection.settings_dict["NAME"]
        self.name = f"{self.test_name}_demo"
        self.folder: Path | None = None
        self.loaded = False

    def _point_at(self, name: str) -> None:
        connection.close()
        connection.settings_dict["NAME"] = name  # the same dict as settings.DATABASES's

    def _create(self) -> None:
        """Load the demo into this process's copy, or, in a parallel run, copy the one the
        first worker loaded (its database and its upload folders, ``DEMO_TEMPLATE``)."""
        self.folder = self.folder or Path(tempfile.mkdtemp(prefix="demo-media-"))
        if self.shared_folder is None:
            self._load()
            return
        with locked(self.shared_folder / "demo-database.lock"):
            ready = self.shared_folder / DEMO_READY
            template, media = (
                ready.read_text() if ready.exists() else "",
                self.shared_folder / "demo-media",
            )
            if template:
                self._point_at(self.test_name)
                copy_database(template, self.name)
                shutil.copytree(media, self.folder, dirs_exist_ok=True)
            else:
                self._load()
                template = f"{self.test_name.removesuffix('_' + worker())}_demo_template"
                self._point_at(self.test_name)
                copy_database(self.name, template)
                shutil.copytree(self.folder, media, dirs_exist_ok=True)
                ready.write_text(template)
        self.loaded = True

    def _load(self) -> None:
        self._point_at(self.test_name)
        copy_database(self.test_name, self.name)
        self._point_at(self.name)
        try:
            with (
                override_settings(MEDIA_ROOT=self.roots[0], PRIVATE_MEDIA_ROOT=self.roots[1]),
                transaction.atomic(),  # one commit, after which its on-commit work runs
            ):
                call_command("load_demo", verbosity=0)
            self.loaded = True
        finally:
            self._point_at(self.test_name)

    @property
    def roots(self) -> tuple[Path, Path]:
        return (self.folder / "media", self.folder / "private-media")

    @contextmanager
    def in_use(self):
        """The demo database (and its upload folders) for a group of tests."""
        with self.blocker.unblock():
            if not self.loaded:
                self._create()
            _upload_roots.append(self.roots)
            self._point_at(self.name)
            try:
                with override_settings(MEDIA_ROOT=self.roots[0], PRIVATE_MEDIA_ROOT=self.roots[1]):
                    yield
            finally:
                self._point_at(self.test_name)
                _upload_roots.pop()

    @contextmanager
    def copy_in_use(self):
        """A copy of the demo database, for one test that commits (a live server's, a
        transactional one): it may change the copy as it likes; the copy is dropped after."""
        copy = f"{self.test_name}_copy"
        with self.blocker.unblock():
            if not self.loaded:
                self._create()
            self._point_at(self.test_name)
            copy_database(self.name, copy)
            folder = Path(tempfile.mkdtemp(prefix="demo-media-copy-"))
            shutil.copytree(self.folder, folder, dirs_exist_ok=True)
            roots = (folder / "media", folder / "private-media")
            _upload_roots.append(roots)
            self._point_at(copy)
            try:
                with override_settings(MEDIA_ROOT=roots[0], PRIVATE_MEDIA_ROOT=roots[1]):
                    yield
            finally:
                self._point_at(self.test_name)
                _upload_roots.pop()
                shutil.rmtree(folder, ignore_errors=True)
                with connection._nodb_cursor() as cursor:
                    cursor.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')

    def drop(self) -> None:
        if self.folder is None:
            return
        with self.blocker.unblock():
            self._point_at(self.test_name)
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        shutil.rmtree(self.folder, ignore_errors=True)
