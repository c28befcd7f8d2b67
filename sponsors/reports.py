"""What the sponsorships contribute to the public funding page (``payments.income``)."""

from django.db.models.functions import ExtractYear

from payments.income import Income
from sponsors.models import Payment, Programme, tier_title

PROGRAMME_LABELS = {
    Programme.Kind.SPONSOR.value: "Sponsors",
    Programme.Kind.MEMBER.value: "Members",
}


def sponsorship_income(year: int) -> list[Income]:
    payments = Payment.objects.filter(paid_at__year=year).values_list(
        "paid_at",
        "currency",
        "amount",
        "sponsorship__organisation_id",
        "sponsorship__tier__programme__kind",
        "is_demo",
        "sponsorship__organisation__name",
        "sponsorship__terms",
    )
    return [
        Income(
            paid_at,
            currency.upper(),
            amount,
            kind,
            f"organisation:{organisation}",
            demo,
            _line(terms, name),
        )
        for paid_at, currency, amount, organisation, kind, demo, name, terms in payments
    ]


def _line(terms: dict, name: str) -> str:
    """A sponsor's support is public (the supporters page thanks it by name)."""
    if {"tier", "programme", "year"} <= set(terms):
        return f"{tier_title(terms['tier'], terms['programme'])} {terms['year']}: {name}"
    return name


def years_with_payments() -> list[int]:
    return list(
        Payment.objects.order_by()
        .annotate(year=ExtractYear("paid_at"))
        .values_list("year", flat=True)
        .distinct()
    )
