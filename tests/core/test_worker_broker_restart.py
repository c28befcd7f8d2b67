"""Issue 47, item 1: a real Celery worker keeps working through a restart of its Redis
broker with a task in flight, and the shipped units restart it whatever its exit status.

Before, the worker logged ``Unrecoverable error: AttributeError("'NoneType' object has
no attribute 'hostname'")`` (kombu putting back the unacknowledged task through a
connection it had already collected) and exited; ``Restart=on-failure`` left it down."""

import configparser
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.core.cache import cache

from core.tasks import HEARTBEAT_KEY, record_worker_heartbeat
from tests.broker import publishing_to

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))


def _worker(broker_url, queue, log):
    from django.db import connection

    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": broker_url,  # the cache stays on the test's Redis
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1",
         "-Q", queue, "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip


def _wait(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_the_worker_survives_a_redis_restart_with_a_task_in_flight(tmp_path):
    if not os.environ.get("REDIS_URL"):
        pytest.fail("REDIS_URL must point at the real Redis for the worker test")
    queue = f"test-{uuid.uuid4().hex[:12]}"
    log_path = tmp_path / "worker.log"
    with publishing_to(tmp_path) as server, log_path.open("w") as log:
        worker = _worker(server.url, queue, log)
        try:
            broker = redis.Redis(port=server.port)
            # A task waiting for its ETA is held by the worker, unacknowledged: in flight.
            record_worker_heartbeat.apply_async(("later",), queue=queue, countdown=600)
            assert _wait(lambda: broker.hlen("unacked") == 1, 60), log_path.read_text()

            server.stop()
            time.sleep(2)
            assert _wait(lambda: "Connection to broker lost" in log_path.read_text(), 20)
            server.start()  # the same port, empty (no persistence)
            broker.connection_pool.disconnect()

            token = uuid.uuid4().hex
            record_worker_heartbeat.apply_async((token,), queue=queue)
            ran = _wait(lambda: cache.get(HEARTBEAT_KEY.format(token=token)) is not None, 60)
            output = log_path.read_text()
            assert "Unrecoverable error" not in output, output
            assert worker.poll() is None, output
            assert ran, output
        finally:
            worker.terminate()
            worker.wait(timeout=30)


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_every_shipped_unit_restarts_its_service_whatever_its_exit_status(unit):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read(unit)
    assert parser["Service"]["Restart"] == "always"
    assert float(parser["Service"]["RestartSec"]) > 0
