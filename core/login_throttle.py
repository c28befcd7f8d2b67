"""Failed sign-ins are throttled per account *and* client address.

django-allauth counts failed sign-ins twice (``ACCOUNT_RATE_LIMITS["login_failed"]``):
per client address, and per "key", which allauth makes from the login alone. Keyed on
the login alone, five wrong passwords typed by a stranger anywhere lock the member out
of their own account. Here the key is the login plus the client address (whatever the
account adapter considers the client address, so the trusted-proxy rules apply), so a
stranger's failures slow down only the stranger; the owner, from their own address,
still signs in. Guessing many accounts from one address is stopped by the per-address
limit.

The staff login of the admin (``/admin/login/``) does not go through allauth; it gets
the same rule with django-ratelimit: 5 attempts in 5 minutes per username and client
address, then 429.
"""

from functools import wraps

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from django_ratelimit.core import is_ratelimited

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

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        account_key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{account_key}:{self.get_client_ip(request)}"


ADMIN_LOGIN_RATE = "5/5m"


def admin_login_key(group, request) -> str:
    username = request.POST.get("username", "").strip().lower()
    return f"{username}:{get_adapter(request).get_client_ip(request)}"


def throttle_admin_login(login_view):
    """Wrap ``admin.site.login``: 429 after too many attempts for one account and address."""

    @wraps(login_view)
    def view(request, *args, **kwargs):
        if request.method == "POST" and is_ratelimited(
            request,
            group="admin-login",
            key=admin_login_key,
            rate=ADMIN_LOGIN_RATE,
            method="POST",
            increment=True,
        ):
            return rate_limited(request)
        return login_view(request, *args, **kwargs)

    return view
