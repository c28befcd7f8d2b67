"""Outages degrade, never 500: Redis down leaves every page working; PostgreSQL down
answers a designed 503 with Retry-After."""

import logging

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory

from core import pagecache

pytestmark = pytest.mark.django_db

CLOSED_REDIS = "redis://127.0.0.1:18099/1"  # nothing listens there (the prod branch's ports)
PAGES = ["/", "/supporters/", "/feedback/", "/api/feedback/summary", "/news/", "/download/",
         "/benchmarks/", "/about/", "/contact/", "/api/releases/", "/rest-api/mariadb/",
         "/api/repo-config/options"]  # fmt: skip


@pytest.fixture
def redis_down(settings):
    settings.REDIS_URL = CLOSED_REDIS
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.FailSoftRedisCache",
            "LOCATION": CLOSED_REDIS,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    from core import cache as fail_soft

    fail_soft.FailSoftRedisCache._last_warning = 0.0


@pytest.mark.usefixtures("redis_down")
def test_with_redis_down_every_page_renders(client, caplog):
    from tests.foundation.factories import NewsPostFactory

    NewsPostFactory()
    with caplog.at_level(logging.WARNING):
        statuses = {path: client.get(path).status_code for path in PAGES}
    assert statuses == dict.fromkeys(PAGES, 200)
    assert "cache unavailable" in caplog.text


@pytest.mark.usefixtures("redis_down")
def test_with_redis_down_no_request_waits_for_another_to_build(client, monkeypatch):
    def pause(seconds):
        pytest.fail("a request waited for a build lock that Redis could not hold")

    monkeypatch.setattr(pagecache, "_pause", pause)
    for path in ["/news/", "/api/releases/", "/rest-api/mariadb/"]:
        assert client.get(path).status_code == 200


@pytest.mark.usefixtures("redis_down")
def test_with_redis_down_rate_limits_fail_open_with_a_log_line(client, caplog):
    from foundation.models import ContactMessage

    data = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}
    with caplog.at_level(logging.WARNING):
        statuses = [client.post("/contact/", data).status_code for _ in range(7)]
    assert statuses == [302] * 7  # the 5/m limit cannot count, so it lets people through
    assert ContactMessage.objects.count() == 7
    assert "rate limits fail open" in caplog.text


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
