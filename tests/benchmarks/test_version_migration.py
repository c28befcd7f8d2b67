"""The data migration that stores versions as the release they name (issue 57): what the
server printed moves to ``server_build``; a version in other digits is left for the pages
to sort as text (issue 58)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("benchmarks", "0006_run_event")]
AFTER = [("benchmarks", "0007_run_server_build")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_versions_become_the_release_they_name():
    old = migrate(BEFORE)
    suite = old.get_model("benchmarks", "Suite").objects.create(slug="s", title="S")
    runs = old.get_model("benchmarks", "Run").objects
    for label, version in [
        ("printed", "10.11.19-MariaDB-0+deb12u1"),
        ("log", "11.4.10-MariaDB-log"),
        ("release", "11.4.9"),
        ("superscript", "1¹.4.9"),
        ("none", ""),
    ]:
        runs.create(suite=suite, label=label, server_version=version)
    try:
        new = migrate(AFTER)
        stored = {
            run.label: (run.server_version, run.server_build)
            for run in new.get_model("benchmarks", "Run").objects.all()
        }
        assert stored == {
            "printed": ("10.11.19", "10.11.19-MariaDB-0+deb12u1"),
            "log": ("11.4.10", "11.4.10-MariaDB-log"),
            "release": ("11.4.9", ""),
            "superscript": ("1¹.4.9", ""),
            "none": ("", ""),
        }
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
