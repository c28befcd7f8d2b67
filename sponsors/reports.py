"""What the sponsorships contribute to the public funding page: how ``payments.ledger``
describes a sponsorship's payments (registered with ``payments.income``)."""

from collections.abc import Iterable

from sponsors.models import Programme, Sponsorship, tier_title

PROGRAMME_LABELS = {
    Programme.Kind.SPONSOR.value: "Sponsors",
    Programme.Kind.MEMBER.value: "Members",
}


def describe_sponsorships(ids: Iterable[int]) -> dict[int, tuple[str, ...]]:
    """Per sponsorship id: its programme, its contributor (the organisation) and the public
    line of the funding page's list ("Gold sponsor: Acme": the supporters page thanks
    sponsors by name; each payment is dated on its own line)."""
    rows = Sponsorship.objects.filter(pk__in=list(ids)).values_list(
        "pk", "tier__programme__kind", "organisation_id", "organisation__name", "terms"
    )
    return {
        pk: (kind, f"organisation:{organisation}", _line(terms, name))
        for pk, kind, organisation, name, terms in rows
    }


def _line(terms: dict, name: str) -> str:
    if {"tier", "programme"} <= set(terms):
        return f"{tier_title(terms['tier'], terms['programme'])}: {name}"
    return name
