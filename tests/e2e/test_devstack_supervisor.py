"""What `make run` (the Procfile under honcho) promises: PostgreSQL and Redis of its own
(PyPI wheels, sockets in its folder), localstripe delivering its events to the site signed
with the development secret, beat running the schedule on the worker, a change made by
another process on the next page view, a database that outlives a run without a second
demo load, and Ctrl-C stopping every process, the engines included."""

import socket
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

from tests.core.test_settings import PRODUCTION_ENV, clean_env
from tests.e2e.devstack import ROOT, DevStack, alive, wait_until

PROCFILE_LINES = {"postgres", "redis", "stripe", "web", "worker", "beat"}


def stripe_post(stack, path, fields):
    request = urllib.request.Request(
        stack.stripe_url + path,
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Authorization": "Bearer sk_test_local"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read()


def get(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode(), answer.headers.get("X-Edge-Cache", "")


def test_it_runs_on_postgresql_and_redis_of_its_own(devstack):
    (version,) = devstack.query("select version()")[0]
    assert version.startswith("PostgreSQL 18")
    assert (devstack.database_folder / "PG_VERSION").exists()
    assert (devstack.folder / "redis.sock").is_socket()
    assert "ready to accept connections" in devstack.output("redis")


def test_localstripe_posts_its_own_signed_events_to_the_site(devstack):
    """The stack is shared: journeys on other workers may create customers meanwhile."""
    customers = "select outcome from payments_stripeevent where type = 'customer.created'"
    before = len(devstack.query(customers))
    stripe_post(devstack, "/v1/customers", {"email": "someone@example.org"})
    # The site verified the signature and recorded the event (no app handles customers).
    recorded = wait_until(
        lambda: (rows := devstack.query(customers)) and len(rows) > before and rows,
        seconds=30,
        what="the customer.created delivery",
    )
    assert {outcome for (outcome,) in recorded} == {"ignored"}
    assert 'webhook "customer.created" successfully delivered' in devstack.output("stripe")


def test_beat_runs_the_periodic_tasks_on_the_worker(devstack):
    # The outbox sweep runs every minute; beat records each run in django-celery-beat's table.
    ran = wait_until(
        lambda: devstack.query(
            "select last_run_at from django_celery_beat_periodictask "
            "where task = 'outbox.tasks.sweep_outbox' and last_run_at is not null"
        ),
        seconds=90,
        what="the outbox sweep",
    )
    assert ran
    assert "outbox.tasks.sweep_outbox" in devstack.output("worker")


def publish_with_manage_py(stack, version: str):
    """A release made by another process than the site's (manage.py; the worker or beat
    would be the same), with nothing but `make run`'s environment."""
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "import datetime; from releases.models import Release, Series; "
            "series, _ = Series.objects.get_or_create(version='10.11'); "
            f"Release.objects.create(series=series, version={version!r}, "
            "release_date=datetime.date(2026, 11, 1))",
        ],
        cwd=ROOT,
        env=stack.environment(),
        check=True,
        capture_output=True,
    )


def test_a_release_published_by_another_process_shows_on_the_next_page_view(devstack):
    url = devstack.url + "/rest-api/mariadb/10.11/latest/"
    publish_with_manage_py(devstack, "10.11.98")
    first, _ = get(url)
    again, _ = get(url)  # make run has no edge cache: built again, the same
    assert '"release_id":"10.11.98"' in first.replace(" ", "")
    assert again == first

    publish_with_manage_py(devstack, "10.11.99")

    after, cache = get(url)
    assert '"release_id":"10.11.99"' in after.replace(" ", ""), cache


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.fixture
def second_stack():
    stack = DevStack.in_new_folder(demo=())
    yield stack
    stack.stop_and_remove()


def test_ctrl_c_stops_every_process_it_started(devstack, second_stack):
    # A second stack on a copy of the first one's database: no migration, no demo to load.
    stack = second_stack
    devstack.copy_database_to(stack)
    stack.start()
    pids = stack.pids()
    assert set(pids) == PROCFILE_LINES
    assert all(alive(pid) for pid in pids.values())
    assert answers(stack.port) and answers(stack.stripe_port)
    (postmaster,) = [int(stack.database_folder.joinpath("postmaster.pid").read_text().split()[0])]
    assert alive(postmaster)
    assert "Demo content loaded" not in stack.output("web")  # the copy has it

    stack.stop()  # SIGINT to the terminal's process group, as Ctrl-C sends it

    assert "SIGINT received" in stack.output("system")
    assert [name for name, pid in pids.items() if alive(pid)] == []
    assert not alive(postmaster)
    assert not answers(stack.port) and not answers(stack.stripe_port)
    assert not (stack.folder / "redis.sock").exists()


@pytest.mark.parametrize(
    "command", [["manage.py", "prepare_devstack"], ["-m", "config.engines", "postgres"]]
)
def test_its_commands_refuse_the_production_profile(command):
    result = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env={**clean_env(), **PRODUCTION_ENV},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "refused under DJANGO_ENV=production" in result.stderr
