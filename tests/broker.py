"""A Celery broker a test can stop: a redis-server of the test's own on a free port, and
Celery publishing to it (not eagerly) while the test runs.

A plain module (not conftest) so that tests import it explicitly; the ``broker`` fixture
of tests/conftest.py wraps ``publishing_to``. With the server stopped, an enqueue after a
commit fails as it does when production's Redis is down (core/enqueue.py logs it)."""

import socket
import subprocess
import time
from contextlib import contextmanager

from config.celery import app as celery_app
from tests.localstripe import free_port


class RedisServer:
    def __init__(self, directory):
        self.port = free_port()
        self.directory = directory
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


@contextmanager
def publishing_to(directory):
    """Celery publishing to a new redis-server (started) instead of running tasks eagerly;
    the server is stopped and Celery's settings and pools restored afterwards."""
    server = RedisServer(directory)
    server.start()
    conf, amqp = celery_app.conf, celery_app.amqp
    saved = conf.task_always_eager, conf.broker_url, celery_app._pool, amqp._producer_pool
    # Both connection pools are rebuilt for this broker, and restored afterwards.
    conf.task_always_eager, conf.broker_url = False, server.url
    celery_app._pool = amqp._producer_pool = None
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.stop()
        for pool in (celery_app._pool, amqp._producer_pool):
            if pool is not None:
                pool.force_close_all()
        conf.task_always_eager, conf.broker_url = saved[:2]
        celery_app._pool, amqp._producer_pool = saved[2:]
