"""Staff review of a drafted run: publishing it, or rejecting it with a reason the
uploader reads; each is a recorded status change and a mail to the uploader."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from benchmarks import mail
from benchmarks.models import Run
from benchmarks.services.limits import text_problem
from benchmarks.services.permissions import missing_provenance_message
from core import transitions
from core.transitions import TransitionRefused
from outbox import queue


def _tell_uploader(run: Run, what: str) -> None:
    """The one place a review's mail to the uploader is recorded (in the outbox, in the
    review's transaction, so it leaves after the commit or not at all). Reviewers who
    review their own upload are not written to."""
    if run.uploaded_by_id is None or run.uploaded_by_id == getattr(run.reviewed_by, "pk", None):
        return
    queue.enqueue(mail.REVIEW_MAIL, run_id=run.pk, what=what, reason=run.review_note)


@transaction.atomic
def publish_run(run: Run, reviewer: User) -> Run:
    """Staff publish a reviewed run; refused, with what is missing, without provenance."""
    run = Run.objects.select_for_update().get(pk=run.pk)
    if run.status == Run.Status.PUBLISHED:
        return run
    missing = run.missing_provenance()
    if missing:
        raise TransitionRefused(missing_provenance_message(missing))
    run.review_note = ""
    run.reviewed_by, run.reviewed_at = reviewer, timezone.now()
    transitions.apply(run, "publish", actor=reviewer)
    _tell_uploader(run, "published")
    return run


@transaction.atomic
def reject_run(run: Run, reviewer: User, reason: str) -> Run:
    """Staff turn a draft down; the reason is what the uploader reads. A published run
    stays published, and a rejected one keeps the reason it was given (TransitionRefused)."""
    reason = (reason or "").strip()
    if not reason:
        raise TransitionRefused("a rejection needs a reason the uploader can act on")
    problem = text_problem(reason, 2000)
    if problem:
        raise TransitionRefused(f"the reason: {problem}")
    run = Run.objects.select_for_update().get(pk=run.pk)
    run.review_note = reason
    run.reviewed_by, run.reviewed_at = reviewer, timezone.now()
    transitions.apply(run, "reject", actor=reviewer, note=reason)
    _tell_uploader(run, "rejected")
    return run
