"""Staff moderation of the public profile: changes a sponsor proposes wait for approval."""

from typing import Any

from django.db import transaction

from sponsors.models import Organisation
from sponsors.supporters_cache import invalidate_supporters_page


@transaction.atomic
def propose_profile_change(organisation: Organisation, **changes: Any) -> dict[str, Any]:
    """Keep what the sponsor changed for staff to review: only the fields whose new value
    differs from the public profile (a field set back to its public value is no longer a
    change). Returns the changes now waiting."""
    proposed = {**organisation.pending_changes, **changes}
    waiting = {
        field: value for field, value in proposed.items() if getattr(organisation, field) != value
    }
    organisation.pending_changes = waiting
    organisation.save(update_fields=["pending_changes"])
    return waiting


@transaction.atomic
def approve_profile_change(organisation: Organisation) -> None:
    for field, value in organisation.pending_changes.items():
        if field in ("name", "website", "description"):
            setattr(organisation, field, value)
    organisation.pending_changes = {}
    organisation.save()
    transaction.on_commit(invalidate_supporters_page)
