"""Who may submit runs and who may publish them, and what a published run needs."""

from allauth.account.models import EmailAddress
from django.conf import settings

from benchmarks.models import Suite
from core.send_limit import SendLimit

PUBLISH_PERMISSION = "benchmarks.publish_run"


def may_publish(user) -> bool:
    """The foundation's own benchmark machines publish directly; everyone else is reviewed."""
    return user is not None and user.has_perm(PUBLISH_PERMISSION)


def may_submit(user) -> bool:
    """Who may submit a run (as a draft, unless they may publish): any active account with
    a verified e-mail address, and staff."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or may_publish(user):
        return True
    return EmailAddress.objects.filter(user=user, verified=True).exists()


def _submit_rate(group, request) -> str:
    return settings.BENCHMARK_SUBMIT_RATE


# Runs an account without publish_run may submit, through the API and the web form
# together; counted once a run is stored (core.send_limit).
SUBMIT_LIMIT = SendLimit(group="benchmarks-submit", key="user", rate=_submit_rate)


def submittable_suite(user, slug: str) -> Suite | None:
    """The suite ``user`` may submit a run to: a published one; any for staff."""
    suites = (
        Suite.objects.all() if user.is_staff or may_publish(user) else Suite.objects.published()
    )
    return suites.filter(slug=slug).first()


def missing_provenance_message(missing: list[str]) -> str:
    """Why a run without its provenance cannot be published, for its importer or reviewer."""
    return "cannot be published without its provenance: it lacks " + ", ".join(missing)
