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


LEDGER_BEFORE = [
    ("payments", "0007_ledger"),
    ("sponsors", "0008_event_undoable_until"),
    ("donations", "0006_expense_receipts_private"),
]
LEDGER_AFTER = [
    ("payments", "0008_move_payments_and_refunds"),
    ("sponsors", "0009_ledger_moves_to_payments"),
    ("donations", "0007_ledger_moves_to_payments"),
]


def test_payments_gifts_and_refunds_move_into_the_one_ledger():
    """Gifts keep their ids (receipt links name them), amounts become minor units in each
    currency's own (a yen gift stays 5000 yen), and a refund finds its gift's payment."""
    old = migrate(LEDGER_BEFORE)
    when = datetime(2026, 3, 10, tzinfo=UTC)
    programme = old.get_model("sponsors", "Programme").objects.create(kind="sponsor", name="S")
    tier = old.get_model("sponsors", "Tier").objects.create(
        programme=programme, name="Gold", slug="gold", year=2026, annual_price=50000
    )
    organisation = old.get_model("sponsors", "Organisation").objects.create(
        name="Acme", billing_name="Acme", billing_email="billing@acme.example"
    )
    sponsorship = old.get_model("sponsors", "Sponsorship").objects.create(
        organisation=organisation, tier=tier, terms={}, payment_method="invoice"
    )
    old.get_model("sponsors", "Payment").objects.create(
        sponsorship=sponsorship, stripe_id="in_s", amount=50000, currency="EUR", paid_at=when
    )
    donation_model = old.get_model("donations", "Donation")
    euros = donation_model.objects.create(amount=20, currency="EUR", frequency="once")
    yen = donation_model.objects.create(amount=5000, currency="JPY", frequency="once")
    gift = old.get_model("donations", "Gift")
    gift.objects.create(
        pk=41, donation=euros, stripe_id="pi_e", amount=20, currency="EUR", paid_at=when
    )
    gift.objects.create(
        pk=42, donation=yen, stripe_id="pi_y", amount=5000, currency="JPY", paid_at=when
    )
    old.get_model("donations", "Refund").objects.create(
        stripe_charge_id="ch_e", payment_intent_id="pi_e", amount=5, currency="EUR", refunded_at=when
    )  # fmt: skip
    try:
        new = migrate(LEDGER_AFTER)
        payment = new.get_model("payments", "Payment")
        moved = {p.stripe_id: p for p in payment.objects.all()}
        assert (moved["pi_e"].pk, moved["pi_e"].amount_minor) == (41, 2000)
        assert (moved["pi_y"].pk, moved["pi_y"].amount_minor) == (42, 5000)
        assert moved["in_s"].amount_minor == 5_000_000 and moved["in_s"].pk > 42
        assert moved["in_s"].object_id == sponsorship.pk
        refund = new.get_model("payments", "Refund").objects.get()
        assert (refund.payment_id, refund.amount_minor) == (41, 500)
        assert not {"sponsors_payment", "donations_gift", "donations_refund"} & set(
            connection.introspection.table_names()
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
