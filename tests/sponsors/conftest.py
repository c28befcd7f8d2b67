import hashlib
import hmac
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

WEBHOOK_SECRET = "whsec_test_secret"


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


def signed(event: dict, secret=WEBHOOK_SECRET, timestamp=None):
    payload = json.dumps(event)
    timestamp = timestamp or int(time.time())
    signature = hmac.new(
        secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256
    ).hexdigest()
    return payload, f"t={timestamp},v1={signature}"


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


def event(event_id, type_, obj):
    return {"id": event_id, "object": "event", "type": type_, "created": int(time.time()), "data": {"object": obj},
            "api_version": "2024-06-20", "livemode": False}  # fmt: skip
