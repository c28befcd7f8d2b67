"""localstripe, the stateful Stripe fake of the tests (and of ``make run``): started on a
free port, and told where to deliver the events it signs and sends."""

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.sponsors.helpers import WEBHOOK_SECRET


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


ROOT = Path(__file__).resolve().parents[1]


def start_localstripe(log_path: Path, invoicing=False) -> tuple[subprocess.Popen, str]:
    """localstripe on a free port, once it answers; a port taken between choosing it and
    binding it costs one more try, not a suite of connection errors. ``invoicing``: the
    one `make run` starts, which also issues one-off invoices (scripts/localstripe_invoicing.py)."""
    binary = Path(sys.executable).with_name("localstripe")
    program = [sys.executable, str(ROOT / "scripts" / "localstripe_invoicing.py")]
    for _ in range(3):
        port = free_port()
        with log_path.open("ab") as log:
            # --from-scratch: without it localstripe loads /tmp/localstripe.pickle, a file
            # every running localstripe rewrites on each change; read half-written by a
            # second test worker's localstripe, it stops that one from starting.
            process = subprocess.Popen(
                [*(program if invoicing else [str(binary)]), "--port", str(port), "--from-scratch"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return process, f"http://127.0.0.1:{port}"
            except OSError:
                time.sleep(0.1)
        process.kill()
        process.wait(10)
    pytest.fail("localstripe did not start:\n" + log_path.read_text(errors="replace"))


def deliver_events(localstripe_url: str, webhook_url: str, secret: str = WEBHOOK_SECRET):
    """localstripe signs every event it makes with ``secret`` and POSTs it to
    ``webhook_url`` (about a second later, once; a later call replaces the address)."""
    request = urllib.request.Request(
        f"{localstripe_url}/_config/webhooks/tests",
        data=json.dumps({"url": webhook_url, "secret": secret}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
