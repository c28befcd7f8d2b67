import pytest

from tests.donations.stripe_events import WEBHOOK_SECRET


@pytest.fixture(autouse=True)
def _stripe_settings(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_SECRET_KEY = "sk_test_fake"
    settings.STRIPE_API_BASE = ""
