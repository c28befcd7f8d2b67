"""The production profile: refuses to start without a secret, passes Django's deployment
checks, and logs one JSON object per line."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUP = "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
SETUP += "django.setup();"
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    # Made when the tests run, never written down: a secret in the code is published, and
    # production refuses it (issue 58; core/secrets.py PUBLISHED_DIGESTS).
    "SECRET_KEY": secrets.token_urlsafe(48),
    "ALLOWED_HOSTS": "portal.example.org",
    "SITE_URL": "https://portal.example.org",
    "EMAIL_URL": f"smtp+tls://portal:{secrets.token_urlsafe(16)}@smtp.example.org:587",
    "STRIPE_SECRET_KEY": "sk_live_" + secrets.token_urlsafe(24),
    "STRIPE_WEBHOOK_SECRET": "whsec_" + secrets.token_urlsafe(24),
}


# The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; production never has it.
# DJANGO_SETTINGS_MODULE is the test run's (tests/settings.py); production reads config.settings.
TEST_ONLY = {"SECRET_KEY", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE", "STRIPE_SECRET_KEY",
             "STRIPE_WEBHOOK_SECRET", "STRIPE_TEST_MODE", "DJANGO_SETTINGS_MODULE"}  # fmt: skip


def clean_env():
    return {k: v for k, v in os.environ.items() if k not in TEST_ONLY}


def run_python(code, extra_env):
    env = clean_env()
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_production_profile_refuses_to_start_without_a_secret_key():
    result = run_python(
        SETUP,
        {"DJANGO_ENV": "production"},
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_profile_passes_the_deployment_checks():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean_env(), **PRODUCTION_ENV},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_settings_turn_on_secure_cookies_and_hsts():
    code = (
        SETUP + "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0,"
        " s.SECURE_SSL_REDIRECT, s.DEBUG)"
    )
    result = run_python(code, PRODUCTION_ENV)
    assert result.stdout.split() == ["True", "True", "True", "True", "False"], result.stderr


def test_production_logs_are_json_lines_on_stdout():
    code = SETUP + "import logging; logging.getLogger('portal.test').warning('disk almost full')"
    result = run_python(code, PRODUCTION_ENV)
    record = json.loads(result.stdout.strip().splitlines()[-1])
    assert record["message"] == "disk almost full"
    assert record["level"] == "WARNING"
    assert record["logger"] == "portal.test"
