"""Models whose moves have names change state through ``core.transitions`` by verb: a verb
that does not start from the object's status is refused with ``TransitionRefused`` and
changes nothing; in bulk, rows the verb does not start from are left as they were."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import transitions
from core.transitions import TransitionRefused
from feedback.models import RawReport
from feedback.services import processing
from outbox import queue
from outbox.models import OutboxItem
from tests.feedback.factories import RawReportFactory

pytestmark = pytest.mark.django_db

OUTBOX_MOVES = {  # (from, verb) -> to; every other pair is refused
    ("pending", "finish"): "done",
    ("pending", "give_up"): "stuck",
    ("pending", "withdraw"): "withdrawn",
    ("stuck", "retry"): "pending",
}
RAW_MOVES = {
    ("pending", "accept"): "processed",
    ("pending", "reject"): "rejected",
    ("processed", "reprocess"): "pending",
    ("rejected", "reprocess"): "pending",
}


@pytest.mark.parametrize(("model", "moves"), [(OutboxItem, OUTBOX_MOVES), (RawReport, RAW_MOVES)])
@given(data=st.data())
def test_each_verb_moves_only_from_its_statuses(model, moves, data):
    status = data.draw(st.sampled_from(model.Status.values))
    name = data.draw(st.sampled_from(sorted(model.VERBS)))
    obj = model(status=status)
    expected = moves.get((status, name))
    assert transitions.may(obj, name) is (expected is not None)
    if expected is None:
        with pytest.raises(TransitionRefused, match=f"Cannot {name.replace('_', ' ')} a "):
            transitions.step(obj, name)
        assert obj.status == status  # nothing changed
    else:
        assert transitions.step(obj, name) == status
        assert obj.status == expected


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
