import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sponsors.helpers import WEBHOOK_SECRET, sign, signed


@pytest.fixture(autouse=True)
def _stripe_settings(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


ROOT = Path(__file__).resolve().parents[2]


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


@pytest.fixture(scope="session")
def localstripe_url(tmp_path_factory):
    """A real stateful Stripe fake (localstripe) for the card flow."""
    process, url = start_localstripe(tmp_path_factory.mktemp("localstripe") / "log")
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="session")
def invoicing_localstripe_url(tmp_path_factory):
    process, url = start_localstripe(
        tmp_path_factory.mktemp("localstripe-invoicing") / "log", invoicing=True
    )
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def fake_stripe(settings, localstripe_url):
    settings.STRIPE_API_BASE = localstripe_url
    return localstripe_url


@pytest.fixture
def post_event(client):
    def post(event, **kwargs):
        payload, header = signed(event, **kwargs)
        return client.post(
            "/stripe/webhook/",
            payload,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=header,
        )

    return post


@pytest.fixture
def post_payload(client):
    """Post raw bytes with a valid signature, whatever their shape."""

    def post(payload: str, **kwargs):
        return client.post(
            "/stripe/webhook/",
            payload,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=sign(payload, **kwargs),
        )

    return post
