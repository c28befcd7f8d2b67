"""Sign-in limits, all counted by django-allauth's own rate limits (``ACCOUNT_RATE_LIMITS``)
(kept: allauth keys its per-account limit on the login alone and does not guard the admin's
login view; this module adds the client address to that key and puts the admin login under
the same limits).

Failed sign-ins (``login_failed``) are counted per client address and per "key". allauth
makes the key from the login alone, so five wrong passwords typed by a stranger anywhere
would lock the member out of their own account. Here the key is the login plus the client
address (the account adapter's ``get_client_ip``, so the trusted-proxy rules apply): a
stranger's failures slow down only the stranger, and the owner still signs in from their
own address. Guessing many accounts from one address is stopped by the per-address limit.

The staff login of the admin (``/admin/login/``) does not go through allauth's forms; its
posts are counted under ``admin_login``: per client address (a spray of usernames from one
address) and per username and address, then 429.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.core import ratelimit
from django.http import HttpRequest, HttpResponse

from core.views import rate_limited

TOO_MANY_ATTEMPTS = (
    "Too many failed sign-in attempts for this account from your network. "
    "Please wait five minutes and try again, or reset your password."
)


class LoginThrottleMixin:
    """For the site's account adapter: the per-account limit also keys on the address."""

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": TOO_MANY_ATTEMPTS,
    }

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        account_key = super()._get_login_attempts_cache_key(request, **credentials)  # type: ignore[misc]  # a mixin for allauth's adapter
        return f"{account_key}:{self.get_client_ip(request)}"  # type: ignore[attr-defined]


def throttle_admin_login(login_view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap ``admin.site.login``: 429 once a client address or an account from it posts
    more often than ``ACCOUNT_RATE_LIMITS["admin_login"]`` allows."""

    @wraps(login_view)
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            username = request.POST.get("username", "").strip()
            key = get_adapter(request)._get_login_attempts_cache_key(request, username=username)
            if not ratelimit.consume(request, action="admin_login", key=key):
                return rate_limited(request)
        return login_view(request, *args, **kwargs)

    return view
