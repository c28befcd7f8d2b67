"""How a sponsorship changes state (the one helper that moves it and records the event),
and the errors the sponsorship workflows raise.

applied ──staff approve──▶ awaiting payment ──paid──▶ active ──30 days before the end──▶ expiring
   │  └─ paid first: approval goes straight to active                          │
   └──staff reject──▶ rejected                          renewal payment ◀──────┘──grace over──▶ lapsed
any open state ──sponsor or staff cancel──▶ cancelled
"""

from django.db import transaction

from payments import outbox
from sponsors import mail
from sponsors.models import Sponsorship, SponsorshipEvent, StatusError
from sponsors.supporters_cache import invalidate_supporters_page

S = Sponsorship.Status


class SponsorshipError(Exception):
    """Base of the typed errors of this module."""


class InvalidTransition(SponsorshipError):
    """The status table (``Sponsorship.TRANSITIONS``) does not allow the change."""


class TierFull(SponsorshipError):
    pass


PAYABLE = {S.APPLIED, S.APPROVED, S.AWAITING_PAYMENT}


WITHDRAWN_NOTE = "application withdrawn by the sponsor"


CANCELLED_NOTE = "cancelled by the sponsor"


UNDOABLE_NOTES = {WITHDRAWN_NOTE, CANCELLED_NOTE}


def move(sponsorship: Sponsorship, to: str, actor=None, note: str = "", *, mail_it=True):
    """Change the status, record the event and (``mail_it``) mail the sponsor in the words
    the site uses: a cancelled application with nothing paid was *withdrawn*."""
    from_status = sponsorship.status
    try:
        sponsorship.move_to(to)
    except StatusError as error:
        raise InvalidTransition(str(error)) from error
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship, from_status=from_status, to_status=to, actor=actor, note=note
    )
    sponsorship.save()
    transaction.on_commit(invalidate_supporters_page)
    if mail_it and to == S.CANCELLED:
        what = sponsorship.status_label.lower()  # "withdrawn" or "cancelled"
        undo = {"undo": True} if note in UNDOABLE_NOTES else {}
        outbox.add(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=what, **undo)
    elif mail_it:
        outbox.add(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what=to)
