"""Who may submit runs and who may publish them, and what a published run needs."""

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from benchmarks.models import Run, Suite

PUBLISH_PERMISSION = "benchmarks.publish_run"
# Whoever asks: an account, a visitor not signed in, or no one (a request without a user).
Someone = User | AnonymousUser | None


def may_publish(user: Someone) -> bool:
    """The foundation's own benchmark machines publish directly; everyone else is reviewed."""
    return user is not None and user.has_perm(PUBLISH_PERMISSION)


def may_submit(user: Someone) -> bool:
    """Who may submit a run (as a draft, unless they may publish): any active account with
    a verified e-mail address, and staff."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or may_publish(user):
        return True
    verified: bool = EmailAddress.objects.filter(user=user, verified=True).exists()
    return verified


RATE_RE = re.compile(r"(?P<count>[0-9]+)/(?P<multiple>[0-9]*)(?P<unit>[smhd])")
RATE_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def submit_rate() -> tuple[int, timedelta]:
    """BENCHMARK_SUBMIT_RATE ("30/h", django-ratelimit's syntax) as runs and a period."""
    match = RATE_RE.fullmatch(settings.BENCHMARK_SUBMIT_RATE.strip())
    if match is None:
        raise ImproperlyConfigured("BENCHMARK_SUBMIT_RATE is not like 30/h")
    seconds = int(match["multiple"] or 1) * RATE_UNIT_SECONDS[match["unit"]]
    return int(match["count"]), timedelta(seconds=seconds)


@dataclass(frozen=True)
class Allowance:
    """How many more runs an account without publish_run may store now, and when each
    stored one stops counting: the runs it stored in the last period, whatever the number
    of uploads that made them (one upload may make up to BENCHMARK_MAX_RUNS_PER_UPLOAD),
    through the API and the web form together."""

    limit: int
    counted: tuple[datetime, ...]  # when each counted run expires, soonest first

    @property
    def remaining(self) -> int:
        return max(0, self.limit - len(self.counted))

    def wait_for(self, runs: int) -> int | None:
        """Seconds until ``runs`` more may be stored; None if never (over the limit)."""
        if runs > self.limit:
            return None
        expiring = len(self.counted) - (self.limit - runs)
        if expiring <= 0:
            return 0
        return max(1, math.ceil((self.counted[expiring - 1] - timezone.now()).total_seconds()))


def submission_allowance(user: User) -> Allowance:
    limit, period = submit_rate()
    since = timezone.now() - period
    created = Run.objects.filter(uploaded_by=user, created_at__gt=since).values_list(
        "created_at", flat=True
    )
    return Allowance(limit, tuple(sorted(moment + period for moment in created)))


def submittable_suite(user: User | AnonymousUser, slug: str) -> Suite | None:
    """The suite ``user`` may submit a run to: a published one; any for staff."""
    suites = (
        Suite.objects.all() if user.is_staff or may_publish(user) else Suite.objects.published()
    )
    return suites.filter(slug=slug).first()


def missing_provenance_message(missing: list[str]) -> str:
    """Why a run without its provenance cannot be published, for its importer or reviewer."""
    return "cannot be published without its provenance: it lacks " + ", ".join(missing)
