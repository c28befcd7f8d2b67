"""One public URL (SITE_URL, SITE_NAME) everywhere a user looks; robots.txt,
security.txt, the security headers on every page; mail and secrets in production."""

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core import mail

from tests.core.test_settings import PRODUCTION_ENV
from tests.foundation.factories import NewsPostFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "https://portal.example.org"


@pytest.fixture
def public_site(settings):
    """SITE_URL as production sets it, applied the way a deployment's migrate applies it."""
    from core.sites import sync_current_site

    settings.SITE_URL = PUBLIC
    settings.SITE_NAME = "MariaDB Foundation"
    sync_current_site()
    return PUBLIC


def test_migrations_leave_the_current_site_at_site_url(settings):
    site = Site.objects.get_current()
    assert f"http://{site.domain}" == settings.SITE_URL
    assert site.name == settings.SITE_NAME
    assert "example.com" not in site.domain


def test_news_feed_and_sitemap_links_use_site_url(client, public_site):
    post = NewsPostFactory(slug="quarterly-update")
    # secure: production serves pages over https only (SECURE_SSL_REDIRECT)
    feed = client.get("/news/feed/", secure=True).content.decode()
    assert f"{PUBLIC}{post.get_absolute_url()}" in feed
    sitemap = client.get("/sitemap.xml", secure=True).content.decode()
    assert f"<loc>{PUBLIC}{post.get_absolute_url()}</loc>" in sitemap
    assert f"<loc>{PUBLIC}/</loc>" in sitemap
    assert "testserver" not in feed + sitemap and "example.com" not in feed + sitemap


def test_admin_view_on_site_goes_to_the_public_site(client, public_site):
    from django.contrib.contenttypes.models import ContentType

    post = NewsPostFactory(slug="board-elected")
    client.force_login(get_user_model().objects.create_superuser("staff", "s@example.org", "x"))
    content_type = ContentType.objects.get_for_model(post)
    response = client.get(f"/admin/r/{content_type.pk}/{post.pk}/")
    assert response.status_code == 302
    assert response["Location"].endswith(f"portal.example.org{post.get_absolute_url()}")


def test_account_mails_link_to_the_public_site(client, public_site):
    get_user_model().objects.create_user("bob", "bob@example.org", "pw-xyz-123456")
    client.post("/accounts/password/reset/", {"email": "bob@example.org"})
    client.post("/accounts/signup/", {"email": "ada@example.org", "password1": "a-long-Passphrase-42",
                                      "password2": "a-long-Passphrase-42"})  # fmt: skip
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        links = re.findall(r"https?://[^\s]+", message.body)
        assert links and all(link.startswith(PUBLIC + "/accounts/") for link in links), links
        assert "example.com" not in message.body + message.subject
        assert "testserver" not in message.body


def test_robots_txt_points_at_the_sitemap(client, public_site):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert "User-agent: *" in lines
    assert f"Sitemap: {PUBLIC}/sitemap.xml" in lines
    assert "Disallow: /admin/" in lines


def test_security_txt_follows_rfc_9116(client, public_site, settings):
    response = client.get("/.well-known/security.txt")
    assert response.status_code == 200
    fields = dict(line.split(": ", 1) for line in response.content.decode().splitlines())
    assert fields["Contact"] == settings.SECURITY_CONTACT
    assert fields["Canonical"] == f"{PUBLIC}/.well-known/security.txt"
    expires = datetime.strptime(fields["Expires"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert timedelta(days=30) < expires - datetime.now(UTC) < timedelta(days=365)


@pytest.mark.parametrize("path", ["/", "/news/", "/contact/", "/accounts/login/", "/robots.txt",
                                  "/api/feedback/summary", "/no-such-page/"])  # fmt: skip
def test_every_page_carries_csp_without_inline_script_and_permissions_policy(client, path):
    response = client.get(path)
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]


def test_templates_have_no_inline_script_or_style_attribute():
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)(?![^>]*application/(ld\+)?json)[^>]*>|\sstyle=\"|\son[a-z]+=\""
    )
    # The project's own templates: its apps' and the site-wide folder (walking the whole
    # checkout would read the virtualenv and the embedded database's files too).
    folders = [Path(app.path) / "templates" for app in apps.get_app_configs()]
    folders = [f for f in folders if f.is_relative_to(ROOT) and ".venv" not in f.parts]
    folders += [Path(folder) for folder in settings.TEMPLATES[0]["DIRS"]]
    templates = {path for folder in folders for path in folder.glob("**/*.html")}
    assert len(templates) > 100  # every app's folder was found
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted(templates)
        for match in inline.finditer(path.read_text())
    ]
    assert offenders == []


def _production(**extra):
    test_only = {"DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}  # tests/settings.py's
    env = {k: v for k, v in os.environ.items() if k not in test_only}
    env.update(PRODUCTION_ENV)
    env.update(SITE_URL=PUBLIC, EMAIL_URL="smtp+tls://portal:pw@smtp.example.org:587")
    env.update(extra)
    return env


def test_the_deploy_check_refuses_console_mail_in_production():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=_production(EMAIL_URL="consolemail://"), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "core.E001" in result.stderr + result.stdout


def test_the_deploy_check_refuses_a_placeholder_site_url():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=_production(SITE_URL="http://127.0.0.1:8000"), capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "core.E002" in result.stderr + result.stdout


def test_secret_links_never_reach_the_logs():
    code = (
        "import os, django, logging; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup();"
        "logging.getLogger('django.request').warning('Not Found: %s', '/accounts/password/reset/key/4-abc123secret/');"
        "logging.getLogger('django.request').warning('Not Found: /accounts/confirm-email/MTQ:secret2/');"
        "logging.getLogger('portal').warning('Invited %s', '/sponsors/invitations/tok3nSecret/')"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_production(),
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    messages = [json.loads(line)["message"] for line in result.stdout.splitlines()]
    assert messages == [
        "Not Found: /accounts/password/reset/key/[redacted]/",
        "Not Found: /accounts/confirm-email/[redacted]/",
        "Invited /sponsors/invitations/[redacted]/",
    ]
