import pytest

from tests.sponsors.helpers import WEBHOOK_SECRET


@pytest.fixture(autouse=True)
def _stripe_settings(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"


@pytest.fixture
def post_event(client):
    from tests.sponsors.helpers import signed

    def post(event, **kwargs):
        payload, header = signed(event, **kwargs)
        return client.post(
            "/stripe/webhook/",
            payload,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=header,
        )

    return post
