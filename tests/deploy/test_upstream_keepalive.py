"""One keep-alive connection to a real gunicorn, used as nginx uses its upstream
connections (deploy/nginx/portal.conf, ``keepalive``): requests one after another, each
sent whole. Junk that the site refuses without reading it must not cost the request
that comes next on the same connection (issue 34: valid feedback reports got 503)."""

import os
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
from tests.feedback.captures import CAPTURES, split_http

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
JUNK_BYTES = 300 * 1024  # what the attacker sent; nginx lets up to 1 MiB through


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def gunicorn_port(tmp_path):
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "FEEDBACK_RATE_LIMIT": "100000/m",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "4",
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT, env=env, start_new_session=True, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:  # up, and its first (slow) request made
                with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    if sock.recv(16).startswith(b"HTTP/1.1 200"):
                        break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("gunicorn did not come up: " + log.read_text())
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def send(sock, method, path, body, content_type):
    """Sends one request whole, as nginx does with a buffered body (in a thread: the
    server may answer before it has read it all)."""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    sender = threading.Thread(target=sock.sendall, args=(head + body,), daemon=True)
    sender.start()
    return sender


def read_response(reader) -> tuple[int, bytes]:
    status_line = reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    length = 0
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), reader.read(length)


def test_a_report_after_refused_junk_on_the_same_connection_is_stored(gunicorn_port):
    _, headers, report = split_http((CAPTURES / "full-10.11-debian12.http").read_bytes())
    junk = b"x" * JUNK_BYTES
    answers = []
    with socket.create_connection(("127.0.0.1", gunicorn_port), timeout=30) as sock:
        reader = sock.makefile("rb")
        # Junk the feedback endpoint refuses by its content type, and a page refuses for
        # want of a CSRF token: neither view reads it.
        for path in ("/rest/v1/post", "/contact/"):
            sender = send(sock, "POST", path, junk, "text/plain")
            answers.append(read_response(reader)[0])
            sender.join(10)
        # Then someone else's valid report on the same connection, as nginx would send it.
        try:
            sender = send(sock, "POST", "/rest/v1/post", report, headers["Content-Type"])
            status, body = read_response(reader)
            sender.join(10)
            answers.append((status, b"<h1>ok</h1>" in body))
        except OSError as error:  # ConnectionError included
            answers.append(f"lost: {error!r}")
    assert answers == [400, 403, (200, True)]
    assert RawReport.objects.count() == 1
