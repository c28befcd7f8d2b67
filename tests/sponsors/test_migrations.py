"""The data migration that names terms by their dates (sponsors 0012): each payment of the
term's price becomes a term, a year from the first day and then each from the day after
the one before; the paid time ends on the last term's last day (no longer the
anniversary); a payment refunded in full buys none; and the standard agreement that named
a year gets the new standard text as its next version."""

from datetime import UTC, date, datetime
from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("sponsors", "0011_terms_named_by_their_dates")]
AFTER = [("sponsors", "0012_terms_from_payments")]
OLD_TERM_CLAUSE = "The sponsor supports the foundation as a {tier} {programme} for {year}."


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_terms_come_from_the_payments_that_bought_them():
    old = migrate(BEFORE)
    programme = old.get_model("sponsors", "Programme").objects.create(kind="sponsor", name="S")
    tier = old.get_model("sponsors", "Tier").objects.create(
        programme=programme, name="Gold", slug="gold", year=2028, annual_price=50000
    )
    organisation = old.get_model("sponsors", "Organisation").objects.create(
        name="Acme", billing_name="Acme", billing_email="billing@acme.example"
    )
    terms = {"tier": "Gold", "programme": "sponsor", "year": 2028, "annual_price": "50000.00", "currency": "EUR"}  # fmt: skip
    sponsorship_model = old.get_model("sponsors", "Sponsorship")
    # Paid on 29 February 2028 and renewed once: the old end was the first day plus 730 days.
    renewed = sponsorship_model.objects.create(
        organisation=organisation, tier=tier, terms=terms, payment_method="invoice",
        status="active", starts_on=date(2028, 2, 29), ends_on=date(2030, 2, 28),
    )  # fmt: skip
    unpaid_span = sponsorship_model.objects.create(
        organisation=organisation, tier=tier, terms=terms, payment_method="invoice",
        status="active", starts_on=date(2027, 12, 31), ends_on=date(2028, 12, 30),
    )  # fmt: skip
    content_type = old.get_model("contenttypes", "ContentType").objects.get(
        app_label="sponsors", model="sponsorship"
    )
    payment = old.get_model("payments", "Payment")
    for stripe_id, day, amount in [
        ("in_first", datetime(2028, 2, 29, 12, tzinfo=UTC), 5_000_000),
        ("in_cent", datetime(2028, 5, 1, tzinfo=UTC), 1),  # not the price: no term
        ("in_renewal", datetime(2029, 2, 1, tzinfo=UTC), 5_000_000),
        ("in_refunded", datetime(2029, 3, 1, tzinfo=UTC), 5_000_000),
    ]:
        made = payment.objects.create(
            stripe_id=stripe_id, content_type=content_type, object_id=renewed.pk,
            amount_minor=amount, currency="EUR", paid_at=day,
        )  # fmt: skip
        if stripe_id == "in_refunded":
            old.get_model("payments", "Refund").objects.create(
                stripe_charge_id="ch_refunded", payment=made, amount_minor=amount,
                currency="EUR", refunded_at=day,
            )  # fmt: skip
    agreement = old.get_model("sponsors", "AgreementTemplate")
    agreement.objects.create(tier=tier, version=1, text=_old_standard_text())
    try:
        new = migrate(AFTER)
        paid_term = new.get_model("sponsors", "PaidTerm")
        rows = paid_term.objects.filter(sponsorship_id=renewed.pk).order_by("starts_on")
        assert [(r.payment.stripe_id, r.starts_on, r.ends_on) for r in rows] == [
            ("in_first", date(2028, 2, 29), date(2029, 2, 28)),
            ("in_renewal", date(2029, 3, 1), date(2030, 2, 28)),
        ]
        sponsorships = new.get_model("sponsors", "Sponsorship").objects
        assert sponsorships.get(pk=renewed.pk).ends_on == date(2030, 2, 28)
        assert sponsorships.get(pk=unpaid_span.pk).ends_on == date(2028, 12, 29)
        versions = new.get_model("sponsors", "AgreementTemplate").objects.filter(tier_id=tier.pk)
        latest = versions.order_by("-version").first()
        assert latest.version == 2
        assert OLD_TERM_CLAUSE not in latest.text
        assert "The sponsor supports the foundation as a {tier} {programme}." in latest.text
        assert versions.get(version=1).text == _old_standard_text()  # kept as accepted
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def _old_standard_text() -> str:
    """The standard agreement as main had it before terms were named by their dates."""
    return import_module("sponsors.migrations.0012_terms_from_payments").OLD_STANDARD_TEXT
