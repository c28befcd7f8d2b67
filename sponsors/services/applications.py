"""Applying for a tier: the agreement versions offered, and the application that accepts one."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core import transitions
from outbox import queue
from sponsors import agreements, mail
from sponsors.models import AgreementTemplate, Organisation, Sponsorship, Tier
from sponsors.services.transitions import SponsorshipError, TierFull


class AgreementChanged(SponsorshipError):
    pass


def current_agreement(tier: Tier) -> AgreementTemplate:
    """The tier's latest agreement version; the standard wording becomes version 1."""
    latest = tier.agreements.order_by("-version").first()
    if latest is None:
        latest, _ = AgreementTemplate.objects.get_or_create(
            tier=tier, version=1, defaults={"text": agreements.STANDARD_TEXT}
        )
    return latest


def save_agreement_version(agreement: AgreementTemplate, actor: User | None) -> AgreementTemplate:
    """Staff's edit becomes a new version; versions already offered never change."""
    with transaction.atomic():
        Tier.objects.select_for_update().get(pk=agreement.tier_id)
        last = agreement.tier.agreements.order_by("-version").first()
        agreement.pk = None
        agreement.version = (last.version if last else 0) + 1
        agreement.created_by = actor
        agreement.save()
    return agreement


@transaction.atomic
def apply(
    organisation: Organisation,
    tier: Tier,
    payment_method: str,
    actor: User | None,
    agreement_version: int | None = None,
) -> Sponsorship:
    """Record the application and, when a version is given, its acceptance of that
    agreement version (refused if the agreement changed since it was shown)."""
    tier = Tier.objects.select_for_update().get(pk=tier.pk)
    if tier.capacity is not None:
        taken = tier.sponsorships.open().count()
        if taken >= tier.capacity:
            raise TierFull(f"The {tier.name} tier is full this year.")
    terms = tier.terms()
    accepted = {}
    if agreement_version is not None:
        agreement = current_agreement(tier)
        if agreement.version != agreement_version:
            raise AgreementChanged(
                f"The agreement was updated while you read it (version {agreement_version} is "
                f"now version {agreement.version}). Nothing was recorded: please read the "
                "agreement below and accept it again."
            )
        accepted = {
            "agreement": agreement,
            "agreement_text": agreements.render(
                agreement.text,
                organisation=organisation.name,
                terms=terms,
                payment_method=payment_method,
            ),
            "accepted_by": actor,
            "accepted_at": timezone.now(),
        }
    sponsorship = Sponsorship.objects.create(
        organisation=organisation,
        tier=tier,
        terms=terms,
        payment_method=payment_method,
        **accepted,
    )
    transitions.record(sponsorship, actor=actor, note="application", from_status="")
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what="applied")
    return sponsorship
