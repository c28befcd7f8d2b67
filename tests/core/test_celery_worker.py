"""A real Celery worker on the real Redis runs what a committed transaction enqueued,
and never what a rolled-back one did."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from config.celery import app as celery_app
from core.tasks import HEARTBEAT_KEY, record_worker_heartbeat

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker_queue(settings):
    if not os.environ.get("REDIS_URL"):
        pytest.fail("REDIS_URL must point at the real Redis for the worker test")
    queue = f"test-{uuid.uuid4().hex[:12]}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        env=env,
    )
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        yield queue
    finally:
        celery_app.conf.task_always_eager = previous
        worker.terminate()
        worker.wait(timeout=20)


def wait_for(key, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cache.get(key) is not None:
            return cache.get(key)
        time.sleep(0.2)
    return None


def test_task_enqueued_on_commit_runs_and_rolled_back_one_does_not(worker_queue):
    rolled_back = uuid.uuid4().hex
    committed = uuid.uuid4().hex

    class Rollback(Exception):
        pass

    with pytest.raises(Rollback), transaction.atomic():
        transaction.on_commit(
            lambda: record_worker_heartbeat.apply_async((rolled_back,), queue=worker_queue)
        )
        raise Rollback

    with transaction.atomic():
        transaction.on_commit(
            lambda: record_worker_heartbeat.apply_async((committed,), queue=worker_queue)
        )

    assert wait_for(HEARTBEAT_KEY.format(token=committed)) is not None, "worker never ran the task"
    # The solo worker takes its queue in order: had the rolled-back task been sent,
    # it would have run before the committed one.
    assert cache.get(HEARTBEAT_KEY.format(token=rolled_back)) is None


@pytest.mark.django_db(transaction=False)
def test_the_worker_registers_every_task_the_apps_enqueue():
    """The outbox's delivery tasks live outside tasks.py; a worker must still know them, or
    what the site enqueues would never run."""
    script = (
        "import django; django.setup(); from config.celery import app; "
        "app.loader.import_default_modules(); print('\\n'.join(sorted(app.tasks)))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    registered = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert {
        "outbox.delivery.deliver",
        "outbox.delivery.sweep",
        "outbox.tasks.sweep_outbox",
        "sponsors.tasks.run_sponsorship_renewals",
    } <= set(registered)
