"""How a sponsorship changes state (the one helper that moves it by a verb of
``Sponsorship.VERBS`` and records the event), and the errors the sponsorship workflows
raise besides ``core.transitions.TransitionRefused``.

applied ──staff approve──▶ awaiting payment ──paid──▶ active ──30 days before the end──▶ expiring
   │  └─ paid first: approval goes straight to active                          │
   └──staff reject──▶ rejected                          renewal payment ◀──────┘──grace over──▶ lapsed
any open state ──sponsor or staff cancel──▶ cancelled ──the sponsor's undo, in time──▶ the state it left
"""

from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from core import transitions
from outbox import queue
from sponsors import mail
from sponsors.models import Sponsorship
from sponsors.supporters_cache import invalidate_supporters_page

S = Sponsorship.Status
# Who makes a change: staff or the sponsor (a request's user); None for the site itself.
Actor = AbstractBaseUser | AnonymousUser | None


class SponsorshipError(Exception):
    """Base of the typed errors of the sponsorship workflows."""


class TierFull(SponsorshipError):
    pass


PAYABLE = {S.APPLIED, S.APPROVED, S.AWAITING_PAYMENT}


def move(
    sponsorship: Sponsorship,
    name: str,
    actor: Actor = None,
    note: str = "",
    *,
    mail_it: bool = True,
    undoable_until: datetime | None = None,
    to: str | None = None,
) -> None:
    """Move by the verb ``name`` of ``Sponsorship.VERBS`` through ``core.transitions.apply``
    (saved, with its ``SponsorshipEvent``; ``to``: where an undo goes back to), renew the
    supporters page after the commit and (``mail_it``) mail the sponsor in the words the
    site uses: a cancelled application with nothing paid was *withdrawn*. Raises
    TransitionRefused, changing nothing. ``undoable_until``: the sponsor's own
    cancellation, which the event keeps undoable until then (and the mail offers to undo)."""
    transitions.apply(
        sponsorship, name, actor=actor, note=note, to=to, undoable_until=undoable_until
    )
    transaction.on_commit(invalidate_supporters_page)
    if mail_it and sponsorship.status == S.CANCELLED:
        what = sponsorship.status_label.lower()  # "withdrawn" or "cancelled"
        undo: dict[str, Any] = {"undo": True} if undoable_until else {}
        queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=what, **undo)
    elif mail_it:
        queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=sponsorship.status)
