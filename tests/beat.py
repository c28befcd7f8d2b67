"""The schedules the migrations store for beat (django-celery-beat's tables), kept as the
test database had them when it was made. A transactional test empties every table when it
ends; a test about the stored schedules asks for ``beat_schedules`` (tests/conftest.py),
which puts them back first if such a test ran before it in the same process."""

from django.core import serializers
from django_celery_beat.models import (
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    PeriodicTasks,
)

MODELS = (IntervalSchedule, CrontabSchedule, PeriodicTask, PeriodicTasks)
_snapshot: list[str] = []


def take_snapshot() -> None:
    _snapshot[:] = [serializers.serialize("json", model.objects.all()) for model in MODELS]


def restore_if_emptied() -> None:
    if PeriodicTask.objects.exists() or not _snapshot:
        return
    for dumped in _snapshot:
        for row in serializers.deserialize("json", dumped):
            row.save()
