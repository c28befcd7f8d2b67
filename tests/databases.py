"""The test databases of a parallel run, migrated once (``django_db_setup`` in
tests/conftest.py).

pytest-django gives each pytest-xdist worker a test database of its own
(``test_<name>_gw0``, ...) and builds each by running every migration, some 12 s of CPU
a worker. Here the first worker to get the lock (a file in the folder the workers of the
run share, the controller's basetemp) builds a template database,
``test_<name>_template``, the same way; each worker then copies it into its own
(PostgreSQL's CREATE DATABASE ... TEMPLATE, a file copy of a second or less) and drops
its copy at the end; the controller drops the template when the run ends. The first
worker of every run builds the template anew, so a run never uses one migrated by an
older run with other migrations.

A serial run, ``--reuse-db``/``--create-db``, ``--nomigrations`` and databases other
than PostgreSQL keep pytest-django's own way.
"""

from pathlib import Path

from django.db import connection
from django.test.utils import setup_databases

from tests.shared_data import copy_database, locked, worker

READY = "template-database.ready"


def template_name() -> str:
    """``test_<name>_template``: the worker's test database name without its suffix."""
    name = connection.creation._get_test_db_name()
    return f"{name.removesuffix('_' + worker()) if worker() else name}_template"


def from_template_applies(config) -> bool:
    return bool(
        worker()
        and connection.vendor == "postgresql"
        and not config.getoption("reuse_db", False)
        and not config.getoption("create_db", False)
        and not config.getoption("nomigrations", False)
    )


def _build_template(verbosity: int) -> None:
    """Migrate the template database as pytest-django would a worker's test database,
    then let go of it (PostgreSQL copies a database no one is connected to)."""
    test_settings = connection.settings_dict.setdefault("TEST", {})
    worker_test_name = test_settings.get("NAME")
    test_settings["NAME"] = template_name()
    try:
        old_config = setup_databases(
            verbosity=verbosity, interactive=False, aliases={"default"}, serialized_aliases=set()
        )
    finally:
        test_settings["NAME"] = worker_test_name
    connection.close()
    # back to the real database's name, as teardown would, without dropping the template
    for conn, old_name, _destroy in old_config:
        conn.settings_dict["NAME"] = old_name


def worker_database_from_template(shared_folder: Path, verbosity: int) -> list:
    """This worker's test database, a copy of the run's template (built first if no worker
    has built it yet). Returns what ``teardown_databases`` takes to drop it after."""
    ready = shared_folder / READY
    with locked(shared_folder / "template-database.lock"):
        if not ready.exists():
            _build_template(verbosity)
            ready.write_text(template_name())
    real_name = connection.settings_dict["NAME"]
    own = connection.creation._get_test_db_name()
    copy_database(template_name(), own)
    connection.close()
    connection.settings_dict["NAME"] = own  # the same dict as settings.DATABASES's
    return [(connection, real_name, True)]


def drop_template(shared_folder: Path) -> None:
    """At the end of the run (the controller): drop the template a worker built."""
    ready = shared_folder / READY
    if not ready.exists():
        return
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{ready.read_text()}" WITH (FORCE)')
    ready.unlink()
