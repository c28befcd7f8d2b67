"""What the sponsorships contribute to the public funding page: how ``payments.ledger``
describes a sponsorship's payments (registered with ``payments.income``)."""

from collections.abc import Iterable

from sponsors.models import Programme, Sponsorship

PROGRAMME_LABELS = {
    Programme.Kind.SPONSOR.value: "Sponsors",
    Programme.Kind.MEMBER.value: "Members",
}


def describe_sponsorships(ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Per sponsorship id: its programme and its contributor, the organisation."""
    rows = Sponsorship.objects.filter(pk__in=list(ids)).values_list(
        "pk", "tier__programme__kind", "organisation_id"
    )
    return {pk: (kind, f"organisation:{organisation}") for pk, kind, organisation in rows}
