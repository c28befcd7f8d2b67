"""Staff moderation of the public profile: changes a sponsor proposes wait for approval."""

from django.db import transaction

from sponsors.models import Organisation
from sponsors.supporters_cache import invalidate_supporters_page


@transaction.atomic
def propose_profile_change(organisation: Organisation, **changes):
    organisation.pending_changes = {**organisation.pending_changes, **changes}
    organisation.save(update_fields=["pending_changes"])


@transaction.atomic
def approve_profile_change(organisation: Organisation):
    for field, value in organisation.pending_changes.items():
        if field in ("name", "website", "description"):
            setattr(organisation, field, value)
    organisation.pending_changes = {}
    organisation.save()
    transaction.on_commit(invalidate_supporters_page)
