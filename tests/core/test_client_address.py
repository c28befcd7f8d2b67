"""The client address behind proxies: X-Forwarded-For is believed only from a trusted
proxy, so a forged header changes nothing, and every rate limit counts real clients."""

import pytest
from django.test import RequestFactory

from core.client import client_address
from tests.feedback.captures import captured_requests, split_http

CONTACT = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}


def request_from(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_without_trusted_proxies_a_forged_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request_from("198.51.100.7", "203.0.113.1")) == "198.51.100.7"


def test_from_a_trusted_proxy_the_address_it_saw_is_the_client(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    # nginx appends the address it saw to whatever the client sent.
    forged_then_real = "203.0.113.1, 192.0.2.50"
    assert client_address(request_from("127.0.0.1", forged_then_real)) == "192.0.2.50"
    assert client_address(request_from("::1", "2001:db8::5")) == "2001:db8::5"


def test_a_client_that_is_not_the_proxy_cannot_pose_as_one(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request_from("198.51.100.7", "192.0.2.50")) == "198.51.100.7"


def test_chains_of_trusted_proxies_are_walked_from_the_right(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    request = request_from("127.0.0.1", "203.0.113.1, 192.0.2.50, 10.1.2.3")
    assert client_address(request) == "192.0.2.50"


def test_garbage_in_the_header_falls_back_to_the_last_trusted_hop(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_address(request_from("127.0.0.1", "not-an-address")) == "127.0.0.1"
    assert client_address(request_from("127.0.0.1", "")) == "127.0.0.1"
    assert client_address(request_from("127.0.0.1")) == "127.0.0.1"


def test_allauth_uses_the_same_address(settings):
    from allauth.account.adapter import get_adapter

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    request = request_from("127.0.0.1", "203.0.113.1, 192.0.2.50")
    assert get_adapter(request).get_client_ip(request) == "192.0.2.50"
    settings.TRUSTED_PROXIES = []
    assert get_adapter(request).get_client_ip(request) == "127.0.0.1"


@pytest.mark.django_db
def test_contact_limit_cannot_be_dodged_with_forged_headers(client, settings):
    settings.TRUSTED_PROXIES = []
    statuses = [
        client.post(
            "/contact/", CONTACT, REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(7)
    ]
    assert statuses[:5] == [302] * 5
    assert statuses[5:] == [429, 429]
    refused = client.post("/contact/", CONTACT, REMOTE_ADDR="198.51.100.7")
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60  # window's end


@pytest.mark.django_db
def test_contact_limit_behind_the_proxy_counts_each_client(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    # Seven different visitors through the same nginx: none is limited.
    statuses = [
        client.post(
            "/contact/", CONTACT, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(7)
    ]
    assert statuses == [302] * 7
    # One visitor through the proxy, forging a different address each time: limited.
    statuses = [
        client.post(
            "/contact/",
            CONTACT,
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 192.0.2.99",
        ).status_code
        for n in range(7)
    ]
    assert statuses[5:] == [429, 429]


def post_startup_report(client, **extra):
    """The real startup report a MariaDB server sent, posted as the plugin posted it."""
    request_line, headers, body = split_http(captured_requests()["startup"])
    path = request_line.split()[1]
    return client.generic("POST", path, body, content_type=headers["Content-Type"], **extra)


@pytest.mark.django_db
def test_feedback_limit_counts_the_client_behind_the_proxy(settings, client):
    settings.FEEDBACK_RATE_LIMIT = "2/m"
    settings.TRUSTED_PROXIES = ["127.0.0.1"]

    def post(forwarded):
        return post_startup_report(client, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)

    # Many servers behind one proxy each keep their own budget...
    assert [post(f"198.51.100.{n}").status_code for n in range(1, 6)] == [200] * 5
    # ...and one server cannot reset its budget by forging the header.
    statuses = [post(f"203.0.113.{n}, 198.51.100.77").status_code for n in range(4)]
    assert statuses == [200, 200, 429, 429]


@pytest.mark.django_db
def test_feedback_limit_ignores_forged_headers_from_untrusted_clients(settings, client):
    settings.FEEDBACK_RATE_LIMIT = "2/m"
    settings.TRUSTED_PROXIES = []
    statuses = [
        post_startup_report(
            client, REMOTE_ADDR="198.51.100.8", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(4)
    ]
    assert statuses == [200, 200, 429, 429]


@pytest.mark.django_db
def test_allauth_login_limit_cannot_be_dodged_with_forged_headers(client, settings):
    settings.TRUSTED_PROXIES = []
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "3/m/ip"}
    data = {"login": "nobody@example.org", "password": "wrong-password-1"}
    pages = [
        client.post(
            "/accounts/login/",
            data,
            REMOTE_ADDR="198.51.100.9",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).content.decode()
        for n in range(5)
    ]
    throttled = ["Too many failed sign-in attempts" in page for page in pages]
    assert throttled == [False, False, False, True, True]
