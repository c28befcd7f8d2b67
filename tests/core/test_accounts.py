import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db


def test_sign_up_requires_email_verification_then_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "email": "ada@example.org",
            "password1": "a-long-Passphrase-42",
            "password2": "a-long-Passphrase-42",
        },
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/confirm-email/")
    # Not signed in until the address is verified.
    assert "_auth_user_id" not in client.session

    assert len(mail.outbox) == 1
    link = re.search(r"http://[^\s]+/accounts/confirm-email/[^\s]+/", mail.outbox[0].body).group(0)
    path = link.split("testserver", 1)[-1] if "testserver" in link else "/" + link.split("/", 3)[3]
    response = client.post(path)
    assert response.status_code == 302
    assert client.session.get("_auth_user_id") == str(get_user_model().objects.get().pk)


def test_login_page_uses_the_site_layout(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' in html
    assert 'class="auth-panel"' in html


def test_password_reset_sends_a_mail_to_known_addresses(client):
    get_user_model().objects.create_user("bob", "bob@example.org", "pw-xyz-123456")
    response = client.post("/accounts/password/reset/", {"email": "bob@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "password" in mail.outbox[0].subject.lower()
