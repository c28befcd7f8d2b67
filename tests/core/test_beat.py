"""Issue 39: a beat on every host, each periodic task sent once. Two schedulers tick side
by side against the real database and the real Redis (the lock and the broker); the
tasks they send are counted in the broker's queue."""

import json
import time
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from config.celery import app as celery_app
from core.beat import CLAIM_PREFIX, LOCK_KEY, ElectedDatabaseScheduler

pytestmark = pytest.mark.django_db(transaction=True)
TASK = "core.tasks.record_worker_heartbeat"
QUEUE = "celery"


@pytest.fixture
def broker():
    """The worker's Redis as the broker, with tasks sent to it rather than run in place
    (`make test` runs tasks eagerly)."""
    client = redis.Redis.from_url(settings.REDIS_URL)

    def clear():
        client.delete(LOCK_KEY, QUEUE, *client.keys(f"{CLAIM_PREFIX}:*"))

    saved = celery_app.conf.task_always_eager, celery_app.conf.broker_url
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = False, settings.REDIS_URL
    clear()
    try:
        yield client
    finally:
        clear()
        celery_app.conf.task_always_eager, celery_app.conf.broker_url = saved


@pytest.fixture
def due_task():
    """The only enabled periodic task: hourly, last run two hours ago, so due now."""
    PeriodicTask.objects.update(enabled=False)
    every_hour, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.HOURS)
    return PeriodicTask.objects.create(
        name="test: hourly heartbeat",
        task=TASK,
        interval=every_hour,
        args=json.dumps(["beat-test"]),
        last_run_at=timezone.now() - timedelta(hours=2),
    )


def sent(broker) -> int:
    messages = [json.loads(raw) for raw in broker.lrange(QUEUE, 0, -1)]
    return sum(message["headers"]["task"] == TASK for message in messages)


def scheduler():
    return ElectedDatabaseScheduler(app=celery_app)


def test_two_schedulers_send_a_due_task_once(broker, due_task):
    first, second = scheduler(), scheduler()
    try:
        for _ in range(3):
            first.tick()
            second.tick()
        assert sent(broker) == 1
        assert first.leading and not second.leading
    finally:
        first.close()
        second.close()


def test_the_standby_takes_over_without_resending(broker, due_task):
    first, second = scheduler(), scheduler()
    try:
        first.tick()
        second.tick()
        assert sent(broker) == 1
        first.close()  # the host with the lock stops

        # The standby now sends, having read the run its predecessor recorded: nothing is due.
        second.tick()
        assert second.leading and sent(broker) == 1
        due_task.refresh_from_db()
        due_task.last_run_at = timezone.now() - timedelta(hours=2)
        due_task.save()
        second.tick()
        second.tick()
        assert sent(broker) == 2
    finally:
        second.close()


def test_a_lapsed_lock_passes_to_another_host(broker, due_task, settings):
    """A host that vanishes without letting go (power cut): its lock lapses after
    BEAT_LOCK_SECONDS and the other scheduler takes over; the vanished one, were it to come
    back, sends nothing more."""
    settings.BEAT_LOCK_SECONDS = 1
    first, second = scheduler(), scheduler()
    try:
        first.tick()
        second.tick()
        assert first.leading and not second.leading
        time.sleep(1.3)
        second.tick()
        assert second.leading
        due_task.refresh_from_db()
        due_task.last_run_at = timezone.now() - timedelta(hours=2)
        due_task.save()
        first.tick()
        assert not first.leading and sent(broker) == 1
        second.tick()
        assert sent(broker) == 2
    finally:
        first.close()
        second.close()


def test_a_run_is_sent_once_even_by_two_schedulers_that_both_think_it_due(broker, due_task):
    """Both read the task before either sent it (a lock that lapsed under a busy holder):
    the run is claimed in Redis, and the second claim sends nothing."""
    first, second = scheduler(), scheduler()
    try:
        first.apply_entry(first.schedule[due_task.name])
        second.apply_entry(second.schedule[due_task.name])
        assert sent(broker) == 1
    finally:
        first.close()
        second.close()


def test_after_redis_comes_back_empty_the_beat_takes_the_lock_again(broker, due_task):
    """Redis restarted without its data (the smoke stage's outage): the holder finds its
    lock gone, takes it again and goes on sending what falls due."""
    first = scheduler()
    try:
        first.tick()
        assert sent(broker) == 1
        broker.flushdb()  # the lock, the claims and the queue are gone
        due_task.refresh_from_db()
        due_task.last_run_at = timezone.now() - timedelta(hours=2)
        due_task.save()
        first.tick()  # finds its lock gone: steps down, sends nothing
        assert not first.leading and sent(broker) == 0
        first.tick()
        first.tick()
        assert first.leading and sent(broker) == 1
    finally:
        first.close()
