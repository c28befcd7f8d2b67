"""A real gunicorn run with config/gunicorn.py: its logs hold no client address (not
even gunicorn's own "Invalid request from ip=" warning) and no URL secret."""

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from feedback.models import RawReport
from tests.feedback.captures import CAPTURES, split_http

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
PORT = 18010  # the prod branch's port range
SECRET = "s3cr3t-reset-key-4f9a"


def request(method, path, body=None, headers=None, address="127.0.0.1"):
    conn = http.client.HTTPConnection(address, PORT, timeout=10)
    conn.request(method, path, body, headers or {})
    response = conn.getresponse()
    return response.status, response.read()


@pytest.fixture
def gunicorn_logs(tmp_path):
    db = connection.settings_dict
    log = tmp_path / "gunicorn.log"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "GUNICORN_BIND": f"127.0.0.1:{PORT}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "4",
        # the access log is off by default (config/gunicorn.py): on here, to check it too
        "GUNICORN_ACCESS_LOG": "-",
    }
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT, env=env, start_new_session=True, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("gunicorn did not come up: " + log.read_text())
                time.sleep(0.2)
        yield log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def test_gunicorn_logs_keep_no_client_address_and_no_secret(gunicorn_logs):
    _, headers, body = split_http((CAPTURES / "full-10.11-debian12.http").read_bytes())
    status, reply = request("POST", "/rest/v1/post", body,
                            {"Content-Type": headers["Content-Type"]})  # fmt: skip
    assert (status, b"<h1>ok</h1>" in reply) == (200, True)
    assert RawReport.objects.count() == 1

    # A malformed request: gunicorn itself answers 400 and logs a warning about it.
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as sock:
        sock.sendall(b"NOT A REQUEST\x01\r\n\r\n")
        assert sock.recv(1024).startswith(b"HTTP/1.1 400")
    # A password-reset link, as a user clicking it from a mail would send it.
    request("GET", f"/accounts/password/reset/key/1-{SECRET}/")
    request("GET", f"/sponsors/invitations/{SECRET}/")
    request("GET", f"/accounts/login/?next=%2Fsponsors%2Finvitations%2F{SECRET}%2F")

    deadline = time.monotonic() + 10  # until gunicorn has written the last request's line
    while "GET /accounts/login/" not in (logs := gunicorn_logs.read_text()):
        assert time.monotonic() < deadline, logs
        time.sleep(0.05)
    assert "Invalid request" in logs  # the warning was written, without its address
    assert '"POST /rest/v1/post HTTP/1.1" 200' in logs
    assert "/accounts/password/reset/key/[redacted]/" in logs
    assert "127.0.0.1" not in logs.replace(f"127.0.0.1:{PORT}", "")  # only the bind line
    assert "ip=" not in logs
    assert SECRET not in logs
