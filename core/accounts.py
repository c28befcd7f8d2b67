"""django-allauth, adapted to the site's two public facts:

- its rate limits (login, sign-up, password reset) key on the same client address as
  every other limit on the site (``core.client``);
- failed sign-ins are counted per account and client address (``core.login_throttle``);
- the links it mails (password reset, address confirmation) point at ``SITE_URL``,
  whatever host name the request that triggered the mail used.
"""

from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest

from core.client import client_address
from core.login_throttle import LoginThrottleMixin


def on_public_site(url: str) -> str:
    """The same path, query and fragment under SITE_URL."""
    bits = urlsplit(url)
    path = bits.path + (f"?{bits.query}" if bits.query else "")
    path += f"#{bits.fragment}" if bits.fragment else ""
    return str(settings.SITE_URL).rstrip("/") + path


class AccountAdapter(LoginThrottleMixin, DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        return client_address(request)

    def get_reset_password_from_key_url(self, key: str) -> str:
        return on_public_site(super().get_reset_password_from_key_url(key))

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        return on_public_site(super().get_email_confirmation_url(request, emailconfirmation))
