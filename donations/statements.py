"""A donor's yearly statement: every gift of one donation in a calendar year with its
receipt's number, what refunds and disputes gave back (on the day the money went back,
as the funding ledger counts it, never more than the gift paid) and the totals per
currency; shown on a page and drawn as a PDF. The statement lists; the receipts remain
the documents of each gift.

A statement covers one donation, the one its signed manage link names: another gift made
with the same address is another link's (an address is not proof of who gave)."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from core.formatting import long_date, money
from core.pdf import document, heading, lines
from donations import documents
from donations.models import Donation, Gift
from invoicing.issuer import DEMO_NOTICE, issuer
from invoicing.pdf import parties, row
from payments.money import from_minor_units

GIFT, REFUND, DISPUTE = "gift", "refund", "dispute"
NOTES = [
    documents.NO_VAT,
    "This statement lists the gifts of the year; each gift's receipt, numbered as listed, "
    "is the document for it.",
]


@dataclass(frozen=True)
class Line:
    on: date
    kind: str  # GIFT, REFUND or DISPUTE
    description: str
    gift_id: int  # the gift it is, or the gift it gives money back of
    receipt: str  # that gift's receipt number
    amount: Decimal  # negative: money given back
    currency: str

    @property
    def given_back(self) -> bool:
        return self.kind != GIFT


@dataclass(frozen=True)
class Total:
    currency: str
    given: Decimal
    given_back: Decimal  # what refunds and disputes gave back in the year, positive
    kept: Decimal


@dataclass(frozen=True)
class Statement:
    donation: Donation
    year: int
    issuer: dict
    donor: dict
    lines: list[Line]
    totals: list[Total]

    @property
    def title(self) -> str:
        return f"Statement of gifts, {self.year}"


def _gifts(donation: Donation) -> list[Gift]:
    return list(donation.gifts.prefetch_related("refunds", "disputes").order_by("paid_at", "id"))


def _movements(gift: Gift):
    """(when, kind, signed minor units) of the gift and of what was taken back of it, the
    oldest taking first and never beyond what the gift paid."""
    yield gift.paid_at, GIFT, gift.amount_minor
    taken = [(refund.refunded_at, REFUND, refund.amount_minor) for refund in gift.refunds.all()]
    taken += [
        (dispute.opened_at, DISPUTE, dispute.amount_minor)
        for dispute in gift.disputes.all()
        if dispute.withdraws
    ]
    left = gift.amount_minor
    for when, kind, amount in sorted(taken):
        amount = min(amount, left)
        left -= amount
        if amount:
            yield when, kind, -amount


def _year(moment: datetime) -> int:
    return timezone.localtime(moment).year


def years(donation: Donation) -> list[int]:
    """The years money moved in for this donation (a gift, or a refund of one), newest
    first: the only statements there are."""
    found = {_year(when) for gift in _gifts(donation) for when, _, _ in _movements(gift)}
    return sorted(found, reverse=True)


def _description(donation: Donation, gift: Gift, kind: str) -> str:
    paid_on = timezone.localtime(gift.paid_at).date()
    if kind == REFUND:
        return f"Refund of the gift of {long_date(paid_on)}"
    if kind == DISPUTE:
        return f"Taken back by a card dispute: the gift of {long_date(paid_on)}"
    if donation.frequency == Donation.Frequency.MONTHLY:
        return f"Monthly gift, {paid_on:%B %Y}"
    return "Gift"


def _receipts(donation: Donation, gifts: list[Gift]) -> dict[int, str]:
    """Each gift's receipt number (one issued now for a gift recorded before receipts
    were numbered)."""
    issued = documents.receipt_numbers(donation)
    return {
        gift.pk: issued.get(gift.stripe_id) or documents.issue_receipt(gift).number
        for gift in gifts
    }


def statement(donation: Donation, year: int) -> Statement | None:
    """The donation's statement for ``year``, or None when no money moved in it."""
    gifts = _gifts(donation)
    moved = [
        (when, kind, amount, gift)
        for gift in gifts
        for when, kind, amount in _movements(gift)
        if _year(when) == year
    ]
    if not moved:
        return None
    receipts = _receipts(donation, sorted({gift for *_, gift in moved}, key=gifts.index))
    found = [
        Line(
            timezone.localtime(when).date(),
            kind,
            _description(donation, gift, kind),
            gift.pk,
            receipts[gift.pk],
            from_minor_units(amount, gift.currency),
            gift.currency.upper(),
        )
        for when, kind, amount, gift in sorted(moved, key=lambda moved: moved[:2])
    ]
    sums = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for line in found:
        sums[line.currency][line.given_back] += abs(line.amount)
    totals = [
        Total(currency, given, back, given - back)
        for currency, (given, back) in sorted(sums.items())
    ]
    donor = {"name": donation.public_name or "Donor", "email": donation.email}
    return Statement(donation, year, issuer(), donor, found, totals)


def statement_pdf(found: Statement) -> bytes:
    pdf = document(found.title)
    heading(pdf, found.title)
    if found.issuer.get("demo"):
        lines(pdf, [DEMO_NOTICE])
    pdf.ln(2)
    parties(pdf, found.issuer, found.donor)
    lines(
        pdf,
        [
            f"Gifts from 1 January to 31 December {found.year}",
            f"Made on: {long_date(timezone.localdate())}",
        ],
    )
    pdf.ln(4)
    row(pdf, "Date · receipt · description", "Amount")
    for line in found.lines:
        label = f"{long_date(line.on)} · {line.receipt} · {line.description}"
        row(pdf, label, money(line.amount, line.currency))
    for total in found.totals:
        if total.given_back:
            row(
                pdf, f"Given in {found.year} ({total.currency})", money(total.given, total.currency)
            )
            row(
                pdf,
                f"Given back by refunds and disputes ({total.currency})",
                money(-total.given_back, total.currency),
            )
        row(
            pdf,
            f"Total for {found.year} ({total.currency})",
            money(total.kept, total.currency),
            size=13,
        )
    pdf.ln(3)
    lines(pdf, NOTES)
    return bytes(pdf.output())
