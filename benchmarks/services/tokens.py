"""Personal API tokens: made, revoked, and the account a token names."""

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from benchmarks.models import SubmissionToken
from benchmarks.services.limits import field_limit, text_problem

# Personal API tokens: "bench_" and 43 URL-safe characters; only their SHA-256 is stored.
TOKEN_PREFIX = "bench_"  # noqa: S105 - a marker, not a secret
MAX_TOKENS_PER_ACCOUNT = 20


class TokenRefused(Exception):
    """A token cannot be made as asked; the message says why."""


def _token_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def create_token(user: User, name: str) -> tuple[SubmissionToken, str]:
    """A new personal token for ``user``, named ``name``; returns it with its key, which is
    never stored and so can be shown only now."""
    name = (name or "").strip()
    if not name:
        raise TokenRefused("Give the token a name, such as the machine that will use it.")
    problem = text_problem(name, field_limit(SubmissionToken, "name"))
    if problem:
        raise TokenRefused(f"The name is {problem}.")
    # Locks the account's row: two requests at once cannot both pass the checks below.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    tokens = SubmissionToken.objects.active().filter(user=user)
    if tokens.filter(name=name).exists():
        raise TokenRefused(f"You already have a token named “{name}”.")
    if tokens.count() >= MAX_TOKENS_PER_ACCOUNT:
        raise TokenRefused(
            f"An account may hold at most {MAX_TOKENS_PER_ACCOUNT} tokens: revoke one first."
        )
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = SubmissionToken.objects.create(
        user=user, name=name, key_hash=_token_hash(key), prefix=key[: len(TOKEN_PREFIX) + 4]
    )
    return token, key


def revoke_token(user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens at once; False when they hold no such active token."""
    return bool(
        SubmissionToken.objects.active()
        .filter(user=user, pk=token_id)
        .update(revoked_at=timezone.now())
    )


def token_user(key: str) -> User | None:
    """The account an active personal token belongs to (None for an unknown or revoked
    key, or an inactive account); records when the token was last used."""
    token = (
        SubmissionToken.objects.active()
        .select_related("user")
        .filter(key_hash=_token_hash(key))
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    SubmissionToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    user: User = token.user
    return user
