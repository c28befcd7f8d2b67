"""No test Stripe in production: ``check --deploy`` refuses a test key, a fake API base and
a Stripe.js that is not Stripe's."""

import subprocess
import sys

import pytest

from tests.core.test_settings import PRODUCTION_ENV, ROOT, clean_env


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"STRIPE_SECRET_KEY": "sk_test_local"}, "STRIPE_SECRET_KEY is a Stripe test key"),
        ({"STRIPE_API_BASE": "http://127.0.0.1:8420"}, "payments.E002"),
        ({"STRIPE_JS_URL": "http://127.0.0.1:8420/js.stripe.com/v3/"}, "payments.E003"),
        ({"STRIPE_JS_URL": "https://js.stripe.com.evil.example/v3/"}, "payments.E003"),
    ],
    ids=["test-key", "fake-stripe-api", "fake-stripe-js", "look-alike-stripe-js"],
)
def test_check_deploy_refuses_test_stripe_in_production(extra, message):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "ERROR"],
        cwd=ROOT,
        env={**clean_env(), **PRODUCTION_ENV, **extra},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
