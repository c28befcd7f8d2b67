"""Organisations: creating one, its logo (stored, removed, or held for a refused form),
and the invitations that make more people its managers."""

import base64
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.db import models, transaction
from django.utils import timezone

from core.storage import private
from outbox import files, queue
from sponsors import logos, mail
from sponsors.models import Invitation, Organisation
from sponsors.services.transitions import SponsorshipError
from sponsors.supporters_cache import invalidate_supporters_page


def create_organisation(
    user: User,
    *,
    logo_upload: "File[Any] | None" = None,
    logo_height: int = logos.THUMBNAIL_HEIGHT,
    **fields: Any,
) -> Organisation:
    """Raises ValidationError (and creates nothing) when the logo is refused. Call it
    outside a transaction: the logo is stored before the organisation is recorded
    (outbox/files.py deletes it if the organisation never commits)."""
    logo = _stored_logo(logo_upload, logo_height) if logo_upload else None
    with transaction.atomic():
        organisation = Organisation.objects.create(**fields)
        organisation.managers.add(user)
        if logo:
            _use_logo(organisation, logo)
    return organisation


def store_logo(
    organisation: Organisation, upload: "File[Any]", height: int = logos.THUMBNAIL_HEIGHT
) -> None:
    """Validate and store a logo and its thumbnail in place of the organisation's (whose
    files are deleted once this commits). Raises ValidationError, storing nothing."""
    logo = _stored_logo(upload, height)
    with transaction.atomic():
        _use_logo(organisation, logo)


@dataclass
class _Logo:
    logo: str
    thumbnail: str


def _stored_logo(upload: "File[Any]", height: int) -> _Logo:
    """The validated logo and its thumbnail, stored before their row commits (each with
    an outbox item that deletes it unless the row's transaction keeps it)."""
    clean, thumbnail = logos.process_logo(upload, height)
    stored: list[str] = []
    for field_name, content in (("logo", clean), ("logo_thumbnail", thumbnail)):
        if not content:
            stored.append("")
            continue
        field = cast(models.FileField, Organisation._meta.get_field(field_name))
        name = field.generate_filename(None, content.name or "")
        stored.append(files.store_uncommitted(field.storage, name, content))
    return _Logo(*stored)


def _use_logo(organisation: Organisation, logo: _Logo) -> None:
    replaced = [f.name for f in (organisation.logo, organisation.logo_thumbnail) if f]
    organisation.logo.name = logo.logo
    organisation.logo_thumbnail.name = logo.thumbnail
    organisation.save()
    storage = organisation.logo.storage
    for name in (logo.logo, logo.thumbnail):
        files.keep(storage, name)
    for name in replaced:
        files.delete_after_commit(storage, name)
    transaction.on_commit(invalidate_supporters_page)


@transaction.atomic
def remove_logo(organisation: Organisation) -> None:
    """The public pages show the organisation's name as a wordmark instead."""
    stored = [(f.storage, f.name) for f in (organisation.logo, organisation.logo_thumbnail) if f]
    organisation.logo = ""
    organisation.logo_thumbnail = ""
    organisation.save(update_fields=["logo", "logo_thumbnail"])
    transaction.on_commit(invalidate_supporters_page)
    for storage, name in stored:
        files.delete_after_commit(storage, name)


@transaction.atomic
def invite(organisation: Organisation, email: str, invited_by: User) -> Invitation:
    if organisation.managers.filter(email__iexact=email).exists():
        raise SponsorshipError(f"{email} already manages {organisation.name}: nothing was sent.")
    invitation = Invitation.objects.create(
        organisation=organisation, email=email, invited_by=invited_by
    )
    queue.enqueue(mail.INVITATION, invitation_id=invitation.pk)
    return invitation


@transaction.atomic
def accept_invitation(invitation: Invitation, user: User) -> None:
    if invitation.accepted_at or invitation.email.lower() != (user.email or "").lower():
        raise SponsorshipError("This invitation is for another address, or was already used.")
    invitation.organisation.managers.add(user)
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])


# A refused application keeps the logo chosen with it: the validated file waits in the
# private folder, named by a signed token in the re-rendered form, until the form is
# accepted (then it is the organisation's logo) or a day has passed.
HELD_LOGOS = "held-logos"
HELD_LOGO_SALT = "sponsors.held-logo"
HELD_LOGO_SECONDS = 24 * 3600


@dataclass
class HeldLogo:
    token: str
    name: str  # the file's name as the sponsor chose it (cleaned)
    preview: str  # a data: URL for the form's <img>


def _prune_held_logos(now: datetime) -> None:
    try:
        _dirs, names = private().listdir(HELD_LOGOS)
    except FileNotFoundError:
        return
    for name in names:
        path = f"{HELD_LOGOS}/{name}"
        if (now - private().get_modified_time(path)).total_seconds() > HELD_LOGO_SECONDS:
            private().delete(path)


def hold_logo(user: User, upload: "File[Any]") -> HeldLogo:
    """Validate ``upload`` (logos.process_logo, as when it is stored) and keep it for the
    re-rendered form. Raises ValidationError, keeping nothing."""
    clean, _thumbnail = logos.process_logo(upload)
    _prune_held_logos(timezone.now())
    stored = private().save(f"{HELD_LOGOS}/{secrets.token_hex(12)}-{clean.name}", clean)
    token = signing.dumps({"user": user.pk, "path": stored}, salt=HELD_LOGO_SALT)
    held = held_logo(user, token)
    if held is None:  # gone the moment it was stored
        raise ValidationError("The logo could not be kept: please choose it again.")
    return held


def held_logo(user: User, token: str) -> HeldLogo | None:
    """The logo kept for ``user`` under ``token``, or None (tampered, someone else's,
    expired or already used)."""
    try:
        kept = signing.loads(token, salt=HELD_LOGO_SALT, max_age=HELD_LOGO_SECONDS)
    except signing.BadSignature:
        return None
    path = kept.get("path", "")
    if kept.get("user") != user.pk or not path.startswith(HELD_LOGOS + "/"):
        return None
    if not private().exists(path):
        return None
    with private().open(path, "rb") as handle:
        data = handle.read()
    name = path.rpartition("/")[2].partition("-")[2]
    kind = "svg+xml" if name.endswith(".svg") else name.rpartition(".")[2].replace("jpg", "jpeg")
    preview = f"data:image/{kind};base64,{base64.b64encode(data).decode()}"
    return HeldLogo(token=token, name=name, preview=preview)


def use_held_logo(held: HeldLogo) -> "ContentFile[bytes]":
    """The kept file as an upload for create_organisation; it is deleted through the
    outbox (no sooner than a refused form's would be pruned)."""
    path = signing.loads(held.token, salt=HELD_LOGO_SALT)["path"]
    with private().open(path, "rb") as handle:
        upload = ContentFile(handle.read(), name=held.name)
    files.delete_after_commit(private(), path)
    return upload
