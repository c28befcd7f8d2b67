"""A donor's receipt for one gift, as a PDF (drawn with ``core.pdf``)."""

from django.conf import settings

from core.formatting import money
from core.pdf import document, heading, lines
from donations.models import Gift


def gift_pdf(gift: Gift) -> bytes:
    donation = gift.donation
    pdf = document(f"Receipt {gift.stripe_id}")
    heading(pdf, f"{settings.SITE_NAME}: receipt for your gift")
    lines(
        pdf,
        [
            f"Amount: {money(gift.amount, gift.currency)}",
            f"Paid on: {gift.paid_at:%d %B %Y}",
            f"Gift: {donation.get_frequency_display()}",
            f"Stripe payment: {gift.stripe_id}",
            *([f"Given by: {donation.email}"] if donation.email else []),
            "",
            "Thank you for supporting the MariaDB Foundation.",
        ],
    )
    if gift.receipt_url:
        pdf.ln(2)
        lines(pdf, [f"Stripe's invoice: {gift.receipt_url}"])
    return bytes(pdf.output())
