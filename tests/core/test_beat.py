"""One beat for the whole installation (issue 52): django-celery-beat's DatabaseScheduler
sends the schedule kept in the database (Admin → Periodic tasks), and every place that
starts processes starts exactly one beat: `make run`'s Procfile and production's systemd
unit (on one host; deploy/twohosts.py runs it on host a only)."""

import json
import re
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from config.celery import app as celery_app
from tests.project import ROOT

TASK = "core.tasks.record_worker_heartbeat"
QUEUE = "celery"


@pytest.fixture
def broker():
    """The test Redis as the broker, with tasks sent to it rather than run in place
    (`make test` runs tasks eagerly)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    saved = celery_app.conf.task_always_eager, celery_app.conf.broker_url
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = False, settings.REDIS_URL
    client.delete(QUEUE)
    try:
        yield client
    finally:
        client.delete(QUEUE)
        celery_app.conf.task_always_eager, celery_app.conf.broker_url = saved


def sent(broker) -> int:
    messages = [json.loads(raw) for raw in broker.lrange(QUEUE, 0, -1)]
    return sum(message["headers"]["task"] == TASK for message in messages)


@pytest.mark.django_db(transaction=True)
def test_the_beat_sends_a_task_made_due_in_the_database_once(broker):
    PeriodicTask.objects.update(enabled=False)
    every_hour, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.HOURS)
    PeriodicTask.objects.create(
        name="test: hourly heartbeat",
        task=TASK,
        interval=every_hour,
        args=json.dumps(["beat-test"]),
        last_run_at=timezone.now() - timedelta(hours=2),
    )
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"

    beat = DatabaseScheduler(app=celery_app)
    try:
        for _ in range(3):
            beat.tick()
        assert sent(broker) == 1
    finally:
        beat.close()


def test_make_run_starts_one_beat():
    procfile = (ROOT / "Procfile").read_text()
    assert len(re.findall(r"^\w+:.*celery -A config beat\b", procfile, re.M)) == 1


def test_production_runs_beat_from_one_unit_said_to_run_on_one_host():
    units = [
        path
        for path in (ROOT / "deploy" / "systemd").iterdir()
        if " beat" in path.read_text() and "celery" in path.read_text()
    ]
    assert [path.name for path in units] == ["portal-beat.service"]
    assert "exactly one on the whole installation" in units[0].read_text()
