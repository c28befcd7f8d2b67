"""The outbox moved out of payments keeps its items: pending ones are still delivered,
and the sweep's schedule and staff's permissions follow it."""

from importlib import import_module

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("payments", "0005_stripe_event_reason"), ("outbox", None)]
AFTER = [("outbox", "0002_own_table_and_lease"), ("payments", "0006_outbox_moves_out")]
# The sweep's schedule as payments made it; a transactional test run before this one
# flushes the rows migrations wrote, so it is put back here rather than assumed.
OLD_SCHEDULE = import_module("payments.migrations.0003_outbox_sweep_schedule")


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1]]).apps


def test_the_items_the_schedule_and_the_permissions_move_with_the_outbox():
    old = migrate(BEFORE)
    old.get_model("payments", "OutboxItem").objects.create(
        kind="sponsors.cancel_subscription",
        payload={"subscription_id": "sub_1"},
        next_attempt_at=timezone.now(),
    )
    OLD_SCHEDULE.create_schedule(old, None)
    content_types = ContentType  # the contenttypes app's migrations are not rewound
    content_types.objects.filter(app_label="outbox").delete()
    moved_type, _ = content_types.objects.get_or_create(app_label="payments", model="outboxitem")
    try:
        new = migrate(AFTER)
        [item] = new.get_model("outbox", "OutboxItem").objects.all()
        assert (item.kind, item.payload, item.status) == (
            "sponsors.cancel_subscription",
            {"subscription_id": "sub_1"},
            "pending",
        )
        assert item.leased_until is None
        tasks = new.get_model("django_celery_beat", "PeriodicTask").objects
        assert tasks.filter(task="outbox.tasks.sweep_outbox").exists()
        assert not tasks.filter(task__startswith="payments.").exists()
        moved = ContentType.objects.get(pk=moved_type.pk)
        assert (moved.app_label, moved.model) == ("outbox", "outboxitem")
    finally:
        ContentType.objects.clear_cache()
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
