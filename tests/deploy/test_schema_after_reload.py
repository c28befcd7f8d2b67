"""/api/schema/ after a reload (issue 58, item 10): gunicorn's master given HUP (what
`systemctl reload portal-web` does) replaces its workers; twelve concurrent requests to a
fresh worker then got ten 500s, drf-spectacular building the schema in each thread at
once. The schema is now built once per process, before it serves (config/schema_view.py)."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
CONCURRENT = 12
RELOADS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Accept": "application/vnd.oai.openapi+json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def workers_of(master: int) -> set[int]:
    found = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True
    ).stdout
    return {int(pid) for pid in found.split()}


def test_the_schema_answers_every_concurrent_request_after_each_reload(tmp_path):
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "16",
    }
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT, env=env, start_new_session=True, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not workers_of(server.pid) or not _answers(port):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        bodies = set()
        for _ in range(RELOADS):
            before = workers_of(server.pid)
            os.kill(server.pid, signal.SIGHUP)
            deadline = time.monotonic() + 60
            while (workers := workers_of(server.pid)) & before or not workers:
                assert time.monotonic() < deadline, log.read_text()  # the old worker left
                time.sleep(0.05)
            with ThreadPoolExecutor(CONCURRENT) as pool:
                answers = list(pool.map(lambda _: get(port, "/api/schema/"), range(CONCURRENT)))
            assert [status for status, _ in answers] == [200] * CONCURRENT, log.read_text()
            bodies |= {body for _, body in answers}
        assert len(bodies) == 1  # one schema, the same for every request
        assert "/api/releases/" in json.loads(bodies.pop())["paths"]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def _answers(port: int) -> bool:
    try:
        return get(port, "/healthz")[0] == 200
    except OSError:
        return False
