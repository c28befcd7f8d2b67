"""Issue 59: every audit row is written by ``core.transitions`` (``apply`` for a move,
``record`` for a first status or a change that moves none); no app writes one beside it."""

import re

import pytest

from donations.models import Donation
from donations.services import recording
from tests.donations.factories import DonationFactory
from tests.project import ROOT, tracked_files

# A model's audit rows are its ``events`` (SponsorshipEvent, RunEvent...); StripeEvent is
# the record of a webhook delivery, not an audit row.
WRITES_AN_AUDIT_ROW = re.compile(
    r"\b(?!Stripe)\w+Event\.objects\.(create|bulk_create)\(|\bevents\.(create|bulk_create)\("
)


def test_no_audit_row_is_written_outside_the_transitions():
    writers = [
        str(path.relative_to(ROOT))
        for path in tracked_files("*.py")
        if path.relative_to(ROOT).parts[0] not in {"tests", "bench"}
        and "migrations" not in path.parts
        and WRITES_AN_AUDIT_ROW.search(path.read_text())
    ]
    assert writers == ["core/transitions.py"]


@pytest.mark.django_db
def test_a_donations_moves_are_each_an_audit_row_naming_what_moved_it():
    donation = DonationFactory(frequency=Donation.Frequency.MONTHLY)
    recording.payment_failed(donation)
    recording.subscription_cancelled(donation)
    recording.subscription_cancelled(donation)  # Stripe's event again: no second move
    rows = [(e.from_status, e.to_status, e.note) for e in donation.events.all()]
    assert rows == [
        ("pending", "past_due", "Stripe: the payment failed"),
        ("past_due", "cancelled", "Stripe: the subscription ended"),
    ]
