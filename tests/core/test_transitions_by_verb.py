"""Every model with a lifecycle changes state through ``core.transitions`` by verb: a verb
that does not start from the object's status is refused with ``TransitionRefused`` and
changes nothing; ``apply`` saves the move with its audit row, or neither; in bulk, rows
the verb does not start from are left as they were."""

import pytest
from django.apps import apps
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.models import Run
from core import transitions
from core.transitions import TransitionRefused
from donations.models import Donation
from feedback.models import RawReport
from feedback.services import processing
from outbox import queue
from outbox.models import OutboxItem
from sponsors.benefits.models import Delivery
from sponsors.models import Sponsorship
from tests.benchmarks.factories import RunFactory
from tests.feedback.factories import RawReportFactory
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
LIFECYCLES = [Sponsorship, Run, Donation, RawReport, Delivery, OutboxItem]


# Every move each lifecycle allows, "from verb to", written out here so that a change to a
# model's VERBS is a change to this table too.
MOVES = {
    Sponsorship: """
        applied approve approved        applied reject rejected
        approved await_payment awaiting_payment
        approved activate active        awaiting_payment activate active
        active renewal_due expiring     expiring renew active       lapsed renew active
        active lapse lapsed             expiring lapse lapsed
        applied cancel cancelled        approved cancel cancelled
        awaiting_payment cancel cancelled
        active cancel cancelled         expiring cancel cancelled
        cancelled undo_cancel applied   cancelled undo_cancel approved
        cancelled undo_cancel awaiting_payment
        cancelled undo_cancel active    cancelled undo_cancel expiring
    """,
    Run: "draft publish published  rejected publish published  draft reject rejected",
    Donation: """
        pending pay paid                past_due pay paid
        pending pay_monthly active      past_due pay_monthly active
        pending fail_payment past_due   active fail_payment past_due
        paid fail_payment past_due      past_due fail_payment past_due
        pending cancel cancelled        active cancel cancelled
        paid cancel cancelled           past_due cancel cancelled
    """,
    RawReport: """
        pending accept processed        pending reject rejected
        processed reprocess pending     rejected reprocess pending
    """,
    Delivery: """
        waiting submit to_do            to_do submit to_do
        waiting deliver delivered       to_do deliver delivered
    """,
    OutboxItem: """
        pending finish done             pending give_up stuck
        pending withdraw withdrawn      stuck retry pending
    """,
}


def statuses(model) -> list[str]:
    return [value for value, _ in model._meta.get_field(transitions.field(model)).choices]


def test_every_model_with_a_lifecycle_names_its_moves_between_its_own_statuses():
    assert [m for m in apps.get_models() if hasattr(m, "VERBS")] == sorted(
        LIFECYCLES, key=list(apps.get_models()).index
    )
    assert not [m for m in apps.get_models() if hasattr(m, "TRANSITIONS")]
    for model in LIFECYCLES:
        declared = {
            (source, name, target)
            for name, move in model.VERBS.items()
            for source in move.sources
            for target in move.targets
        }
        words = MOVES[model].split()
        assert declared == set(zip(words[::3], words[1::3], words[2::3], strict=True)), model
        assert {s for s, _, t in declared} | {t for s, _, t in declared} <= set(statuses(model))


@pytest.mark.parametrize("model", LIFECYCLES)
@given(data=st.data())
def test_a_verb_moves_from_its_sources_to_its_target_and_a_refused_one_changes_nothing(model, data):
    status = data.draw(st.sampled_from(statuses(model)))
    name = data.draw(st.sampled_from(sorted(model.VERBS)))
    to = data.draw(st.sampled_from([None, *statuses(model)]))
    obj = model(**{transitions.field(model): status})
    move = model.VERBS[name]
    allowed = status in move.sources and (
        to in move.targets if to or len(move.targets) > 1 else True
    )
    assert transitions.may(obj, name) is (status in move.sources)
    if not allowed:
        with pytest.raises(TransitionRefused, match=f"Cannot {name.replace('_', ' ')} a "):
            transitions.step(obj, name, to=to)
        assert getattr(obj, transitions.field(model)) == status  # nothing changed
    else:
        assert transitions.step(obj, name, to=to) == status
        (target,) = {to} if to else move.targets
        assert getattr(obj, transitions.field(model)) == target


def test_apply_saves_the_move_with_its_audit_row_or_neither():
    run, staff = RunFactory(status=Run.Status.DRAFT, label="before"), UserFactory(is_staff=True)
    run.label = "after"
    event = transitions.apply(run, "reject", actor=staff, note="Which hardware?")
    run.refresh_from_db()
    assert (run.status, run.label) == ("rejected", "after")
    assert (event.from_status, event.to_status, event.actor, event.note) == (
        "draft",
        "rejected",
        staff,
        "Which hardware?",
    )
    run.label = "refused"
    with pytest.raises(TransitionRefused, match="Cannot reject a run that is rejected"):
        transitions.apply(run, "reject", actor=staff)
    run.refresh_from_db()
    assert (run.status, run.label, run.events.count()) == ("rejected", "after", 1)


def test_an_unknown_verb_is_refused_with_the_same_error():
    with pytest.raises(TransitionRefused, match="no move named 'publish'"):
        transitions.step(OutboxItem(), "publish")


def test_staff_retry_only_stuck_items_and_withdrawing_leaves_delivered_ones():
    stuck = OutboxItem.objects.create(kind="k", status="stuck", attempts=5)
    done = OutboxItem.objects.create(kind="k", status="done", payload={"a": 1})
    assert queue.retry(OutboxItem.objects.all()) == 1
    stuck.refresh_from_db()
    done.refresh_from_db()
    assert (stuck.status, stuck.attempts, done.status) == ("pending", 0, "done")
    assert queue.withdraw("k", a=1) is False
    done.refresh_from_db()
    assert done.status == "done"


def test_reprocessing_moves_processed_and_rejected_reports_back_and_through_again():
    good, bad = RawReportFactory(), RawReportFactory(body=b"not a report")
    processing.process_pending(batch_size=10)
    good.refresh_from_db()
    bad.refresh_from_db()
    assert (good.status, bad.status) == ("processed", "rejected")
    moved = transitions.step_all(
        RawReport.objects.filter(pk__in=[good.pk, bad.pk]), "reprocess", rejection_reason=""
    )
    assert moved == 2
    assert set(RawReport.objects.values_list("status", flat=True)) == {"pending"}
    result = processing.reprocess([good.pk, bad.pk])
    assert (result.processed, result.rejected) == (1, 1)
