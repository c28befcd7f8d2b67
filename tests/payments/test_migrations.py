"""The data migration moves the events the two former tables held into payments' one
table, so a replay of an event either endpoint saw is still a duplicate."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [
    ("payments", "0001_stripe_events_and_outbox"),
    ("sponsors", "0003_organisation_website_optional"),
    ("donations", "0001_initial"),
]
MOVE = ("payments", "0002_move_stripe_events")


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_old_event_tables_move_into_one():
    old = migrate(BEFORE)
    sponsors_event = old.get_model("sponsors", "StripeEvent")
    donations_event = old.get_model("donations", "DonationStripeEvent")
    sponsors_event.objects.create(event_id="evt_sponsor", type="invoice.paid")
    sponsors_event.objects.create(event_id="evt_both", type="invoice.paid")
    donations_event.objects.create(event_id="evt_gift", type="charge.refunded", outcome="processed")
    donations_event.objects.create(event_id="evt_both", type="invoice.paid", outcome="ignored")
    try:
        new = migrate([MOVE])
        moved = new.get_model("payments", "StripeEvent").objects.order_by("event_id")
        assert [(e.event_id, e.type, e.outcome) for e in moved] == [
            ("evt_both", "invoice.paid", "processed"),
            ("evt_gift", "charge.refunded", "processed"),
            ("evt_sponsor", "invoice.paid", "processed"),
        ]
        assert all(e.received_at <= datetime.now(tz=UTC) for e in moved)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
