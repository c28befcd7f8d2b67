"""Failed sign-ins are throttled per account and client address: a stranger cannot lock
a member out, but cannot keep guessing either."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from core.login_throttle import TOO_MANY_ATTEMPTS

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-Passphrase-42"
STRANGER = "203.0.113.9"
OWNER = "198.51.100.20"


@pytest.fixture
def member():
    user = get_user_model().objects.create_user("ada", "ada@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def sign_in(client, password, address, login="ada@example.org"):
    return client.post(
        "/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address
    )


def signed_in(client):
    return "_auth_user_id" in client.session


def test_a_strangers_wrong_passwords_do_not_lock_the_member_out(client, member):
    stranger = Client()
    for _ in range(8):
        sign_in(stranger, "guess-123456", STRANGER)

    response = sign_in(client, PASSWORD, OWNER)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(member.pk)

    refused = sign_in(stranger, PASSWORD, STRANGER)
    assert refused.status_code == 200 and not signed_in(stranger)
    assert TOO_MANY_ATTEMPTS in refused.content.decode()


def test_one_address_guessing_many_accounts_is_stopped(client, member):
    for number in range(10):
        sign_in(client, "guess-123456", STRANGER, login=f"someone{number}@example.org")
    response = sign_in(client, PASSWORD, STRANGER)
    assert not signed_in(client)
    assert "Too many failed" in response.content.decode()
    assert sign_in(client, PASSWORD, OWNER).status_code == 302


FAILURES_ALLOWED = 5  # per account and address in five minutes (docs/hostile-input.md)
OWNER_AT_WORK = "198.51.100.77"


def test_typos_under_the_limit_are_forgiven_and_one_more_locks_that_address(client, member):
    """The boundary, from both sides: one typo fewer than the limit and the right password
    still signs in; as many typos as the limit allows, and the next attempt is refused
    even with the right password. Without any throttle the second half fails."""
    for _ in range(FAILURES_ALLOWED - 1):
        sign_in(client, "typo-123456", OWNER)
    assert sign_in(client, PASSWORD, OWNER).status_code == 302

    at_work = Client()
    for _ in range(FAILURES_ALLOWED):
        sign_in(at_work, "typo-123456", OWNER_AT_WORK)
    refused = sign_in(at_work, PASSWORD, OWNER_AT_WORK)
    assert refused.status_code != 302 and not signed_in(at_work)
    assert TOO_MANY_ATTEMPTS in refused.content.decode()


def admin_sign_in(client, password, address, username="ada"):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def test_the_admin_login_is_throttled_per_account_and_address(client, member):
    member.is_staff = True
    member.save()
    stranger = Client()
    answers = [admin_sign_in(stranger, "guess-123456", STRANGER).status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    assert "Too many requests" in admin_sign_in(stranger, PASSWORD, STRANGER).content.decode()

    response = admin_sign_in(client, PASSWORD, OWNER)
    assert response.status_code == 302 and response["Location"] == "/admin/"


def test_spraying_usernames_at_the_admin_login_from_one_address_gets_429(client, member):
    """Finding 8: one address, 40 usernames; each name is tried once, so only the
    per-address limit can stop it."""
    member.is_staff = True
    member.save()
    answers = [
        admin_sign_in(client, "Summer2026!", STRANGER, username=f"staff{number}").status_code
        for number in range(40)
    ]
    assert answers == [200] * 10 + [429] * 30
    assert admin_sign_in(client, PASSWORD, STRANGER).status_code == 429
    # Another address is not affected.
    response = admin_sign_in(Client(), PASSWORD, OWNER)
    assert response.status_code == 302 and response["Location"] == "/admin/"
