"""django-allauth, adapted: its rate limits (login, sign-up, password reset) key on the
same client address as every other limit on the site."""

from allauth.account.adapter import DefaultAccountAdapter

from core.client import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        return client_address(request)
