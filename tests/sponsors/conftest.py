import pytest

from tests.sponsors.helpers import WEBHOOK_SECRET, sign, signed


@pytest.fixture(autouse=True)
def _stripe_settings(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"


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
