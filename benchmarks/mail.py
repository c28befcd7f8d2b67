"""The contributors' mail; texts are in templates/benchmarks/email/.

``services`` records each mail in the outbox when a reviewer publishes or rejects a
contributor's run; the outbox calls ``send_review_mail`` after the commit, and again until
the mail server accepts it."""

from django.conf import settings
from django.urls import reverse

from benchmarks.models import Run
from core.mail import send_templated_mail

# The outbox kind of the mail (registered in BenchmarksConfig.ready()).
REVIEW_MAIL = "benchmarks.review_mail"


def send_review_mail(run_id: int, what: str, reason: str = ""):
    """Tell a run's uploader that it was published (with its address) or rejected (with
    the reviewer's reason)."""
    run = Run.objects.select_related("suite", "uploaded_by").filter(pk=run_id).first()
    if run is None or run.uploaded_by is None or not run.uploaded_by.email:
        return
    site = settings.SITE_URL.rstrip("/")
    context = {
        "run": run,
        "suite": run.suite,
        "what": what,
        "reason": reason,
        "run_url": site + run.get_absolute_url(),
        "account_url": site + reverse("benchmarks:account"),
    }
    send_templated_mail("benchmarks/email/review", context, [run.uploaded_by.email])
