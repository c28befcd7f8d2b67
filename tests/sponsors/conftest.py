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


@pytest.fixture(scope="session")
def localstripe_url():
    """A real stateful Stripe fake (localstripe) for the card flow."""
    port = free_port()
    binary = Path(sys.executable).with_name("localstripe")
    process = subprocess.Popen(
        [str(binary), "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
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
