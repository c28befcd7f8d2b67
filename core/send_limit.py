"""How often a person may send a form, counting only what was actually sent.

django-ratelimit's decorator counts every post before the view runs, so a form sent back
for a mistake (or refused by its honeypot) used up the allowance, and its 429 page lost
everything the person had typed. A ``SendLimit`` uses the same library and cache with
``increment`` chosen by the view: ``wait`` looks without counting, ``count`` counts once
the submission has been stored or sent, and ``refuse`` answers 429 with the form as
typed, a notice saying when it may be sent again, and ``Retry-After``.

Keys are django-ratelimit's: ``"ip"`` is the client address (``RATELIMIT_IP_META_KEY``,
``core.client``), ``"user"`` the signed-in account. With Redis unreachable the limit
fails open (``RATELIMIT_FAIL_OPEN``), as every other limit on the site does.
"""

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage


@dataclass(frozen=True)
class SendLimit:
    group: str
    key: str
    rate: str

    def _usage(self, request: HttpRequest, *, increment: bool) -> dict[str, Any] | None:
        usage: dict[str, Any] | None = get_usage(
            request,
            group=self.group,
            key=self.key,
            rate=self.rate,
            method="POST",
            increment=increment,
        )
        return usage

    def wait(self, request: HttpRequest) -> int | None:
        """Seconds until this client may send again, or None if it may send now."""
        usage = self._usage(request, increment=False)
        if usage is None or usage["count"] < usage["limit"]:
            return None
        return max(1, int(usage["time_left"]))

    def count(self, request: HttpRequest) -> None:
        """Count one submission that was stored or sent."""
        self._usage(request, increment=True)


def wait_message(seconds: int) -> str:
    if seconds < 120:
        when = "1 second" if seconds == 1 else f"{seconds} seconds"
    else:
        when = f"{-(-seconds // 60)} minutes"
    return (
        "You have sent this form too often in a short time, so it was not sent. "
        f"Your text is kept below: you may send it again in {when}."
    )


def refuse(request: HttpRequest, template: str, context: dict[str, Any], wait: int) -> HttpResponse:
    """The form page again, as typed, with the wait named; 429 and ``Retry-After``."""
    response = render(
        request, template, {**context, "send_limit_message": wait_message(wait)}, status=429
    )
    response["Retry-After"] = str(wait)
    return response
