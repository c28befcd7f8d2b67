"""Kill the server with SIGKILL under load: every report answered <h1>ok</h1> is in the database."""

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from feedback.models import RawReport

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
BOUNDARY = "--------------------------ba4f3696b39f"
UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="
# Acknowledged reports before the kill: the clients are sending, and more are in flight.
UNDER_LOAD = 60


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def report(client_id, sequence) -> bytes:
    return (
        f"FEEDBACK_SERVER_UID\t{UID}\nVERSION\t10.11.6-MariaDB\nX_CRASH_TEST\t{client_id}-{sequence}\n\n"
    ).encode()


def multipart(data: bytes) -> bytes:
    return (
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"--{BOUNDARY}--\r\n".encode()
    )


@pytest.fixture
def gunicorn_server():
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_BROKER_URL": "memory://localhost//",
        "FEEDBACK_RATE_LIMIT": "100000/m",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.2)
    else:
        os.killpg(server.pid, signal.SIGKILL)
        pytest.fail("gunicorn did not come up")
    yield server, port
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)


def test_sigkill_under_load_loses_no_acknowledged_report(gunicorn_server):
    server, port = gunicorn_server
    acknowledged: list[str] = []
    stop = threading.Event()
    lock = threading.Lock()

    def client(client_id):
        sequence = 0
        while not stop.is_set():
            data = report(client_id, sequence)
            sequence += 1
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request(
                    "POST", "/rest/v1/post", multipart(data),
                    {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
                )  # fmt: skip
                reply = conn.getresponse().read()
            except (OSError, http.client.HTTPException):
                continue  # the server is gone: this report was never acknowledged
            if b"<h1>ok</h1>" in reply:
                with lock:
                    acknowledged.append(f"{client_id}-{sequence - 1}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < UNDER_LOAD and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(server.pid, signal.SIGKILL)  # master and workers, mid-load
    server.wait(10)
    stop.set()
    for thread in threads:
        thread.join(15)

    assert len(acknowledged) > 20, "the load never got going"
    stored = {
        re.search(rb"X_CRASH_TEST\t(\S+)", bytes(body)).group(1).decode()
        for body in RawReport.objects.values_list("body", flat=True)
    }
    missing = [marker for marker in acknowledged if marker not in stored]
    assert missing == [], f"{len(missing)} of {len(acknowledged)} acknowledged reports were lost"
