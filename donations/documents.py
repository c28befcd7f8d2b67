"""A donor's receipt for one gift: issued and numbered by the invoicing app (the same
receipt sequence as the sponsors'), with the issuer, the donor, the date, the amount and
how it was paid."""

from django.utils import timezone

from donations.models import Donation, Gift
from invoicing import services as issuing
from invoicing.models import IssuedDocument

NO_VAT = "A gift: nothing was sold in return, so no VAT is due."


def issue_receipt(gift: Gift) -> IssuedDocument:
    """The gift's receipt (issued once; a gift recorded before receipts were numbered
    gets its number when it is first asked for)."""
    donation = gift.donation
    paid_on = timezone.localtime(gift.paid_at).date()
    if donation.frequency == donation.Frequency.MONTHLY:
        what = f"Monthly gift to the MariaDB Foundation, {paid_on:%B %Y}"
    else:
        what = "Gift to the MariaDB Foundation"
    return issuing.issue(
        IssuedDocument.Kind.RECEIPT,
        donation,
        gift.stripe_id,
        total=gift.amount,
        currency=gift.currency,
        buyer={"name": donation.public_name or "Donor", "email": donation.email},
        lines=[{"description": what, "amount": gift.amount}],
        no_vat_reason=NO_VAT,
        paid={"on": paid_on.isoformat(), "how": f"card, through Stripe ({gift.stripe_id})"},
        issued_on=paid_on,
    )


def receipt_numbers(donation: Donation) -> dict[str, str]:
    """The number of each receipt issued for the donation's gifts, by the gift's Stripe id."""
    receipts = IssuedDocument.objects.about(donation).receipts()
    return dict(receipts.values_list("occasion", "number"))
