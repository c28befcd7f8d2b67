"""Nothing committed is forgotten: a sponsorship cancelled while Redis (the Celery broker)
is down still has its Stripe subscription cancelled, once Redis is back and the outbox
sweep runs. Real parts: a redis-server this test starts and stops, localstripe."""

import socket
import subprocess
import time

import pytest

from config.celery import app as celery_app
from payments import gateway
from payments.models import OutboxItem
from payments.tasks import sweep_outbox
from sponsors import stripe_gateway, stripe_tasks
from sponsors.models import Sponsorship
from sponsors.services import applications, billing, lifecycle
from tests.localstripe import free_port
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db
CARD = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123"}


class RedisServer:
    def __init__(self, directory):
        self.port = free_port()
        self.directory = directory
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def broker(tmp_path):
    """Celery publishing to a redis-server of this test, not eagerly."""
    server = RedisServer(tmp_path)
    server.start()
    conf, amqp = celery_app.conf, celery_app.amqp
    saved = conf.task_always_eager, conf.broker_url, celery_app._pool, amqp._producer_pool
    # Both connection pools are rebuilt for this broker, and restored afterwards.
    conf.task_always_eager, conf.broker_url = False, server.url
    celery_app._pool = amqp._producer_pool = None
    yield server
    if server.process.poll() is None:
        server.stop()
    for pool in (celery_app._pool, amqp._producer_pool):
        if pool is not None:
            pool.force_close_all()
    conf.task_always_eager, conf.broker_url = saved[:2]
    celery_app._pool, amqp._producer_pool = saved[2:]


def test_a_cancellation_committed_while_redis_is_down_reaches_stripe_after_the_sweep(
    fake_stripe, broker, django_capture_on_commit_callbacks, caplog
):
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ANNUAL, None
    )
    billing.pay_by_card(sponsorship, stripe_gateway.card_payment_method(CARD))
    sponsorship.refresh_from_db()
    subscriptions = gateway.client().v1.subscriptions
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "active"

    broker.stop()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.cancel(sponsorship, None, "cancelled by the sponsor")
    # The enqueue after the commit failed, and said so; the cancellation is still owed.
    assert "not enqueued, broker unavailable" in caplog.text
    sponsorship.refresh_from_db()
    assert sponsorship.status == Sponsorship.Status.CANCELLED
    item = OutboxItem.objects.get(kind=stripe_tasks.CANCEL_SUBSCRIPTION)
    assert (item.status, item.attempts) == (OutboxItem.Status.PENDING, 0)
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "active"

    broker.start()
    sweep_outbox()  # what beat runs every minute
    item.refresh_from_db()
    assert (item.status, item.attempts) == (OutboxItem.Status.DONE, 1)
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "canceled"
    # A second sweep finds nothing owed: the cancellation is made once.
    assert sweep_outbox() == {"done": 0, "pending": 0, "stuck": 0}
