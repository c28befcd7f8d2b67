"""A Celery broker a test can stop: a redis-server of the test's own on a free port, and
Celery publishing to it (not eagerly) while the test runs.

A plain module (not conftest) so that tests import it explicitly; the ``broker`` fixture
of tests/conftest.py wraps ``publishing_to``. With the server stopped, an enqueue after a
commit fails as it does when production's Redis is down (core/enqueue.py logs it)."""

import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from config.celery import app as celery_app
from tests.clocks import real_clock_env
from tests.localstripe import free_port


class RedisServer:
    def __init__(self, directory):
        self.port = free_port()
        self.directory = Path(directory)
        self.process = None
        self.started = False  # once it has run, a restart keeps its port

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        """Start it and wait until it answers; on its first start, a port another process
        took since ``free_port`` chose it is given up for another one."""
        for _attempt in range(3):
            log = self.directory / f"redis-{self.port}.log"
            self.process = subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(self.port),
                    "--save",
                    "",
                    "--dir",
                    str(self.directory),
                ],
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
                env=real_clock_env(),
            )
            deadline = time.monotonic() + 30  # a loaded machine starts it slowly
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                    self.started = True
                    return
                except OSError:
                    time.sleep(0.05)
            if self.process.poll() is None or self.started:
                break
            self.port = free_port()  # it exited: the port was taken meanwhile
        raise RuntimeError(f"redis-server did not start: {log.read_text()[-500:]}")

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
