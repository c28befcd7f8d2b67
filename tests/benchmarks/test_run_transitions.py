"""A run's status moves only by the verbs of ``Run.VERBS``, through the one helper
(core.transitions.apply), and each move leaves a row in the run's history (``RunEvent``)."""

from datetime import date

import pytest
from django.contrib.auth.models import Permission

from benchmarks.models import Run, RunEvent
from benchmarks.services import review
from core.transitions import TransitionRefused
from tests.benchmarks.factories import RunFactory
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
R = Run.Status


@pytest.fixture
def reviewer():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["publish_run", "view_run", "change_run"])
    )
    return user


def a_draft(**fields):
    return RunFactory(status=R.DRAFT, run_date=date(2026, 11, 22), **fields)


def history(run):
    return list(run.events.values_list("from_status", "to_status", "actor", "note"))


def test_review_decisions_are_recorded_with_who_made_them_and_why(reviewer):
    published = review.publish_run(a_draft(), reviewer)
    assert history(published) == [("draft", "published", reviewer.pk, "")]
    rejected = review.reject_run(a_draft(), reviewer, "Which hardware?")
    assert history(rejected) == [("draft", "rejected", reviewer.pk, "Which hardware?")]
    # A rejected run may still be published after all.
    review.publish_run(rejected, reviewer)
    rejected.refresh_from_db()
    assert (rejected.status, rejected.review_note) == (R.PUBLISHED, "")
    assert [row[:2] for row in history(rejected)] == [
        ("draft", "rejected"),
        ("rejected", "published"),
    ]


def test_a_published_run_is_not_rejected_and_nothing_changes(reviewer):
    run = RunFactory(status=R.PUBLISHED, review_note="")
    with pytest.raises(TransitionRefused, match="Cannot reject a run that is published"):
        review.reject_run(run, reviewer, "Changed my mind")
    run.refresh_from_db()
    assert (run.status, run.review_note, run.reviewed_by) == (R.PUBLISHED, "", None)
    assert not RunEvent.objects.exists()


def test_a_rejected_run_keeps_the_reason_it_was_given(reviewer):
    run = review.reject_run(a_draft(), reviewer, "Which hardware?")
    with pytest.raises(TransitionRefused, match="Cannot reject a run that is rejected"):
        review.reject_run(run, reviewer, "Another reason")
    run.refresh_from_db()
    assert (run.status, run.review_note) == (R.REJECTED, "Which hardware?")
    assert run.events.count() == 1


def test_the_admin_says_which_runs_it_did_not_reject(client, reviewer):
    draft = a_draft(label="a draft")
    published = RunFactory(status=R.PUBLISHED, label="already public")
    client.force_login(reviewer)
    response = client.post(
        "/admin/benchmarks/run/",
        {
            "action": "reject",
            "_selected_action": [draft.pk, published.pk],
            "reason": "Say when it was measured.",
        },
        follow=True,
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Rejected 1 run(s)." in text
    assert "Not rejected: “already public”: Cannot reject a run that is published." in text
    assert Run.objects.get(pk=published.pk).status == R.PUBLISHED
    assert Run.objects.get(pk=draft.pk).status == R.REJECTED
    page = client.get(f"/admin/benchmarks/run/{draft.pk}/change/")
    assert "Say when it was measured." in page.content.decode()
