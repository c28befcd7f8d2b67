"""Outages degrade, never 500: Redis down leaves every page working; PostgreSQL down
answers a designed 503 with Retry-After."""

import logging
import signal
import socket
import subprocess
import time
from types import SimpleNamespace

import pytest
import redis
import redis.connection
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory

from tests.clocks import real_clock_env

pytestmark = pytest.mark.django_db

CLOSED_REDIS = "redis://127.0.0.1:18099/1"  # nothing listens there (the prod branch's ports)
PAGES = ["/", "/supporters/", "/feedback/", "/api/feedback/summary", "/news/", "/download/",
         "/benchmarks/", "/about/", "/contact/", "/api/releases/", "/rest-api/mariadb/",
         "/api/repo-config/options"]  # fmt: skip
CONTACT = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}
PASSWORD = "a-long-Passphrase-42"


def cache_settings(location):
    """The production cache configuration (config/settings.py), pointed at ``location``."""
    from django.conf import settings

    return {"default": {**settings.CACHES["default"], "LOCATION": location}}


@pytest.fixture
def redis_down(settings):
    settings.REDIS_URL = CLOSED_REDIS
    settings.CACHES = cache_settings(CLOSED_REDIS)


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server of this test's own on a free port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=real_clock_env(),
    )  # fmt: skip
    location = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(location, socket_timeout=1)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    yield SimpleNamespace(process=process, location=location, client=client)
    process.send_signal(signal.SIGCONT)
    process.terminate()
    process.wait(10)


@pytest.fixture
def frozen_redis(settings, redis_server):
    """Redis accepts connections but never answers: SIGSTOP, as in the smoke stage."""
    settings.REDIS_URL = redis_server.location
    settings.CACHES = cache_settings(redis_server.location)
    redis_server.process.send_signal(signal.SIGSTOP)
    yield redis_server


@pytest.fixture
def redis_commands(monkeypatch):
    """Counts the commands the cache sends to any Redis (they still go out)."""
    sent = []
    original = redis.connection.AbstractConnection.send_packed_command

    def counting(self, command, *args, **kwargs):
        sent.append(command)
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
    return sent


@pytest.fixture
def member():
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("ada", "ada@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def outage_lines(caplog):
    return [r for r in caplog.records if r.name == "core.cache" and "cache " in r.getMessage()]


@pytest.mark.usefixtures("redis_down")
def test_with_redis_down_every_page_renders(client, caplog):
    from tests.foundation.factories import NewsPostFactory

    NewsPostFactory()
    with caplog.at_level(logging.WARNING):
        statuses = {path: client.get(path).status_code for path in PAGES}
    assert statuses == dict.fromkeys(PAGES, 200)
    lines = outage_lines(caplog)
    assert [line.getMessage() for line in lines] == [
        "cache unavailable (ConnectionError): serving without cache, rate limits fail open"
    ]
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None


@pytest.mark.usefixtures("redis_down")
def test_with_redis_down_rate_limits_fail_open_with_a_log_line(client, caplog):
    from foundation.models import ContactMessage

    with caplog.at_level(logging.WARNING):
        statuses = [client.post("/contact/", CONTACT).status_code for _ in range(7)]
    assert statuses == [302] * 7  # the 5/m limit cannot count, so it lets people through
    assert ContactMessage.objects.count() == 7
    assert "rate limits fail open" in caplog.text


def test_with_redis_frozen_the_member_signs_in(client, member, frozen_redis, caplog):
    with caplog.at_level(logging.WARNING):
        response = client.post(
            "/accounts/login/", {"login": "ada@example.org", "password": PASSWORD}
        )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(member.pk)
    assert len(outage_lines(caplog)) == 1


def test_with_redis_frozen_sign_up_and_password_reset_work(
    client, member, frozen_redis, mailoutbox
):
    from django.contrib.auth import get_user_model

    response = client.post(
        "/accounts/signup/",
        {"email": "grace@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(email="grace@example.org").exists()

    response = client.post("/accounts/password/reset/", {"email": "ada@example.org"})
    assert response.status_code == 302
    assert any("ada@example.org" in mail.to for mail in mailoutbox)


def test_with_redis_frozen_the_contact_form_is_not_limited(client, frozen_redis):
    from foundation.models import ContactMessage

    statuses = [client.post("/contact/", CONTACT).status_code for _ in range(7)]
    assert statuses == [302] * 7
    assert ContactMessage.objects.count() == 7


def test_a_frozen_redis_is_asked_once_per_breaker_interval(
    client, frozen_redis, redis_commands, caplog
):
    """The first cache call pays the timeout and opens the breaker; every later call in
    the interval is answered without a byte sent; after the interval Redis is tried once
    more, and once it answers again the cache is back and the log says so."""
    from core.cache import breaker_for

    with caplog.at_level(logging.WARNING):
        statuses = [client.get(path).status_code for path in PAGES]
    assert statuses == [200] * len(PAGES)
    assert len(redis_commands) == 1
    breaker = breaker_for(frozen_redis.location)
    assert breaker.opened

    # Pages ask Redis nothing (the edge keeps them); the download redirect's lookups are
    # kept there (core/pagecache.py).
    download = "/rest-api/mariadb/11.4.2/mariadb-11.4.2.tar.gz"
    breaker._opened -= breaker._recovery_timeout  # the interval has passed
    assert client.get(download).status_code == 404
    assert len(redis_commands) == 2  # one more try, which times out again

    frozen_redis.process.send_signal(signal.SIGCONT)
    breaker._opened -= breaker._recovery_timeout
    assert client.get(download).status_code == 404
    assert len(redis_commands) > 3  # the cache is used again
    messages = [line.getMessage() for line in outage_lines(caplog)]
    assert messages[0] == (
        "cache unavailable (TimeoutError): serving without cache, rate limits fail open"
    )
    assert messages[1].startswith("cache available again after ")
    assert len(messages) == 2


def test_with_redis_up_rate_limits_still_count(client, settings, redis_server):
    """The fail-open path is only taken when Redis is unreachable."""
    settings.CACHES = cache_settings(redis_server.location)
    statuses = [client.post("/contact/", CONTACT).status_code for _ in range(7)]
    assert statuses == [302] * 5 + [429] * 2


@pytest.mark.usefixtures("redis_down")
def test_healthz_names_redis_as_down_and_still_serves(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    health = response.json()
    assert (health["status"], health["database"], health["redis"]) == ("degraded", "up", "down")


def test_healthz_says_ok_when_everything_answers(client, settings):
    assert settings.REDIS_URL
    assert client.get("/healthz").json() == {"status": "ok", "database": "up", "redis": "up"}


@pytest.fixture
def broker_down(monkeypatch):
    """Tasks really go to a broker, and nothing listens where it should be."""
    from config.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.update(task_always_eager=False, broker_url=CLOSED_REDIS)
    # Forget connections and producers made earlier in the session for the real broker.
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    yield
    app.conf.update(saved)


@pytest.mark.usefixtures("broker_down")
def test_an_enqueue_with_the_broker_down_is_logged_not_raised(caplog):
    from core.tasks import record_worker_heartbeat

    with caplog.at_level(logging.WARNING):
        result = record_worker_heartbeat.delay("t")
    assert result is None
    assert "core.tasks.record_worker_heartbeat not enqueued, broker unavailable" in caplog.text


@pytest.mark.usefixtures("broker_down")
def test_a_contact_message_is_kept_when_the_broker_is_down(
    client, caplog, django_capture_on_commit_callbacks
):
    from foundation.models import ContactMessage

    data = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        response = client.post("/contact/", data)
    assert response.status_code == 302
    assert ContactMessage.objects.get().message == "Hello"
    assert "not enqueued, broker unavailable" in caplog.text


@pytest.fixture
def database_down(monkeypatch):
    from django.db.backends.base.base import BaseDatabaseWrapper

    def refuse(self, *args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)


def test_with_the_database_down_pages_answer_a_designed_503(django_user_model, database_down):
    client = Client(raise_request_exception=False)
    for path in ["/", "/news/", "/supporters/", "/download/", "/feedback/", "/about/board/"]:
        response = client.get(path)
        assert response.status_code == 503, path
        assert response["Retry-After"] == "120"
        assert b"We will be back in a moment" in response.content
        assert b"Traceback" not in response.content


def test_a_signed_in_visitor_also_gets_the_503(django_user_model, monkeypatch):
    from django.db.backends.base.base import BaseDatabaseWrapper

    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_user("ada", "ada@example.org", "x"))

    def refuse(self, *args, **kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
    response = client.get("/")
    assert response.status_code == 503
    assert b"We will be back in a moment" in response.content


def test_the_error_handler_turns_outages_anywhere_into_503():
    from core.outage import server_error

    request = RequestFactory().get("/about/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503
    assert response["Retry-After"] == "120"
    try:
        raise ValueError("a real bug")
    except ValueError:
        response = server_error(request)
    assert response.status_code == 500
