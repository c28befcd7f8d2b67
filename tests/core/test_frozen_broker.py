"""Issue 47, item 2: a frozen Redis (SIGSTOP: it accepts connections and never answers)
used to hang the whole site: a feedback post's wake-up, published after the commit by the
request writing its batch, waited forever, and every report queued behind it; an outbox
enqueue after a contact message did the same. Now a publish waits CELERY_BROKER_TIMEOUT,
the broker is then skipped for CELERY_BROKER_BREAKER_SECONDS, and the cache and rate
limits fail open: a request pays one timeout at most. Real parts: a redis-server of the
test's own (broker and cache) frozen with SIGSTOP, PostgreSQL, concurrent requests."""

import signal
import threading
import time

import pytest
from django.db import connection
from django.test import Client

import core.enqueue
from core.tasks import record_worker_heartbeat
from feedback import tasks as feedback_tasks
from feedback.models import RawReport
from foundation.models import ContactMessage
from outbox.models import OutboxItem
from tests.broker import publishing_to
from tests.core.test_outages import CONTACT, cache_settings
from tests.feedback.test_endpoint import BOUNDARY, multipart

UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="
ONE_SECOND = 1.0


def report(number: int) -> bytes:
    return multipart(f"FEEDBACK_SERVER_UID\t{UID}\nFEEDBACK_WHEN\tstartup\nN\t{number}\n".encode())


@pytest.fixture
def frozen_redis(tmp_path, settings, monkeypatch):
    """The broker and the cache on one redis-server, then frozen; thawed and stopped after."""
    with publishing_to(tmp_path) as server:
        settings.REDIS_URL = server.url
        settings.CELERY_BROKER_URL = server.url
        settings.CACHES = cache_settings(server.url)
        assert record_worker_heartbeat.delay("warm") is not None  # a pooled connection
        warm_up()
        # The same concurrent requests with Redis answering: what they take on this
        # machine at this moment (a loaded CI machine takes more than a second for them).
        healthy = timed_in_threads(concurrent_requests(), timeout=20)
        server.healthy_seconds = max(seconds or 20.0 for seconds in healthy.values())
        forget_what_requests_stored()
        monkeypatch.setattr(feedback_tasks.wake_processing, "next_at", 0.0)  # a wake is due
        server.process.send_signal(signal.SIGSTOP)
        try:
            yield server
        finally:
            server.process.send_signal(signal.SIGCONT)


def timed_in_threads(requests: dict, timeout: float) -> dict:
    """Runs each named request in its own thread with its own client; the seconds each
    took, or None for one still waiting after ``timeout``."""
    took = {}

    def run(name, send):
        started = time.monotonic()
        try:
            send(Client())
            took[name] = time.monotonic() - started
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item, daemon=True) for item in requests.items()]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return {name: took.get(name) for name in requests}


def post_report(number):
    def send(client):
        response = client.generic(
            "POST", "/rest/v1/post", report(number),
            content_type=f"multipart/form-data; boundary={BOUNDARY}",
        )  # fmt: skip
        assert response.status_code == 200, response.content

    return send


def get(path):
    def send(client):
        assert client.get(path).status_code == 200

    return send


def post_contact(client):
    assert client.post("/contact/", CONTACT).status_code == 302


def warm_up():
    """Each kind of request once before Redis freezes: what is measured is the wait for
    Redis, not a first request's imports and template compilation."""
    client = Client()
    for send in (post_report(999), get("/healthz"), get("/news/"), post_contact):
        send(client)
    forget_what_requests_stored()


def forget_what_requests_stored():
    RawReport.objects.all().delete()
    ContactMessage.objects.all().delete()
    OutboxItem.objects.all().delete()


def concurrent_requests() -> dict:
    requests = {f"report {n}": post_report(n) for n in range(12)}
    return requests | {
        "contact": post_contact,
        "/healthz": get("/healthz"),
        "/news/": get("/news/"),
    }


@pytest.mark.django_db(transaction=True)
def test_with_redis_frozen_concurrent_posts_and_pages_answer_within_a_second(frozen_redis):
    took = timed_in_threads(concurrent_requests(), timeout=20)
    waiting = [name for name, seconds in took.items() if seconds is None]
    assert waiting == [], f"still waiting after 20 s: {waiting}"
    # At most a second more than with Redis answering: one timeout (0.25 s broker, 0.5 s
    # cache), never a wait behind the frozen server (42 to 59 s before issue 47).
    limit = frozen_redis.healthy_seconds + ONE_SECOND
    slow = {name: round(seconds, 2) for name, seconds in took.items() if seconds > limit}
    assert slow == {}, (
        f"more than {limit:.2f} s (with Redis answering: the slowest took {frozen_redis.healthy_seconds:.2f} s)"
    )
    # Nothing was lost: the reports wait for the beat sweep, the mail in the outbox.
    assert RawReport.objects.pending().count() == 12
    assert ContactMessage.objects.count() == 1
    mail_to_staff = OutboxItem.objects.filter(kind="foundation.contact_message")
    assert mail_to_staff.get().status == OutboxItem.Status.PENDING


@pytest.mark.django_db(transaction=True)
def test_a_frozen_broker_costs_one_timeout_per_interval(frozen_redis, caplog):
    took = timed_in_threads({"first": lambda _: record_worker_heartbeat.delay("a")}, 10)
    assert took["first"] is not None and took["first"] <= ONE_SECOND
    started = time.monotonic()
    for _ in range(50):
        assert record_worker_heartbeat.delay("b") is None
    assert time.monotonic() - started < 0.1  # the breaker is open: no network at all
    messages = [r.getMessage() for r in caplog.records if r.name == "core.enqueue"]
    assert len(messages) == 1 and "not enqueued, broker unavailable" in messages[0]

    frozen_redis.process.send_signal(signal.SIGCONT)
    core.enqueue.BROKER_BREAKER.open_until = 0.0  # the interval has passed
    assert record_worker_heartbeat.delay("c") is not None
    messages = [r.getMessage() for r in caplog.records if r.name == "core.enqueue"]
    assert messages[-1].startswith("broker available again after ")
