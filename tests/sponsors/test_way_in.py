"""An anonymous visitor who picks a tier is told what comes next before any sign-in
form, and the account they create brings them back to the application."""

import re

import pytest
from django.core import mail
from pytest_django.asserts import assertContains

from sponsors.models import Sponsorship
from tests.sponsors.factories import TierFactory

pytestmark = pytest.mark.django_db


def test_an_anonymous_visitor_sees_the_steps_before_signing_in(client):
    tier = TierFactory(name="Gold")
    url = f"/sponsors/apply/{tier.pk}/"
    response = client.get(url)
    assert response.status_code == 200
    assertContains(response, "<strong>Create an account</strong>", html=True)
    assertContains(
        response,
        f'<a class="button" href="/accounts/signup/?next={url}">Create an account and apply</a>',
        html=True,
    )
    assertContains(
        response,
        f'<a class="button button-secondary" href="/accounts/login/?next={url}">'
        "I have an account: sign in</a>",
        html=True,
    )
    assert 'name="password"' not in response.content.decode()


def test_an_anonymous_post_changes_nothing_and_asks_to_sign_in(client):
    tier = TierFactory()
    response = client.post(f"/sponsors/apply/{tier.pk}/", {"payment_method": "invoice"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Sponsorship.objects.exists()


def test_signing_up_from_the_steps_returns_to_the_application(client):
    tier = TierFactory(name="Gold")
    url = f"/sponsors/apply/{tier.pk}/"
    client.post(
        f"/accounts/signup/?next={url}",
        {
            "email": "cto@acme.test",
            "password1": "a-long-Passphrase-42",
            "password2": "a-long-Passphrase-42",
            "next": url,
        },
    )
    link = re.search(r"https?://\S+(/accounts/confirm-email/\S+/)", mail.outbox[-1].body).group(1)
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == url
    assertContains(client.get(url), "<h1>Apply for Gold (Commercial sponsor)</h1>", html=True)
