"""Receipts: the issuer, a number from the one receipt sequence (sponsors and donors
alike), the date, what was paid and how, in the site's one money format; staff open every
receipt from the donation's and the sponsorship's admin pages."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from pytest_django.asserts import assertContains

from donations.services import recording as gift_recording
from donations.signing import manage_token
from invoicing.models import IssuedDocument
from sponsors.services import recording
from tests.donations.factories import DonationFactory, GiftFactory
from tests.foundation.factories import UserFactory
from tests.invoicing.helpers import pdf_text
from tests.sponsors.factories import ActiveSponsorshipFactory

pytestmark = pytest.mark.django_db


def test_a_gift_and_a_sponsor_payment_take_the_next_numbers_of_one_sequence(
    client, django_capture_on_commit_callbacks, settings
):
    donation = DonationFactory(amount=Decimal("1234.5"), public_name="Ada Lovelace")
    with django_capture_on_commit_callbacks(execute=True):
        gift = gift_recording.record_gift(
            donation,
            stripe_id="pi_gift",
            amount_minor=123450,
            currency="EUR",
            paid_at=GiftFactory.paid_at,
        )
    sponsorship = ActiveSponsorshipFactory()
    recording.record_payment(
        sponsorship.pk,
        stripe_id="pi_sponsor",
        amount_minor=5000000,
        currency="EUR",
        paid_at=GiftFactory.paid_at,
    )
    numbers = list(
        IssuedDocument.objects.receipts().order_by("id").values_list("number", flat=True)
    )
    assert numbers == ["RCT-000001", "RCT-000002"]
    (receipt_mail,) = [m for m in mail.outbox if m.to == [donation.email]]
    assert "Receipt RCT-000001" in receipt_mail.body and "€1,234.50" in receipt_mail.body
    text = pdf_text(
        client.get(f"/donate/manage/{manage_token(donation.reference)}/receipt/{gift.pk}/")
    )
    for expected in [
        "Receipt RCT-000001",
        settings.INVOICE_ISSUER_NAME,
        f"Business id: {settings.INVOICE_ISSUER_BUSINESS_ID}",
        "Ada Lovelace",
        "Date: 10 March 2026",
        "Paid on: 10 March 2026, card, through Stripe (pi_gift)",
        "Gift to the MariaDB Foundation €1,234.50",
        "Total €1,234.50",
        "no VAT is due",
    ]:
        assert expected in text, expected
    assert "EUR" not in text


def test_staff_open_a_donations_receipts_from_its_admin_page(client):
    gift = GiftFactory()
    gift_recording.documents.issue_receipt(gift)
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_donation", "view_issueddocument"])
    )
    client.force_login(staff)
    page = client.get(f"/admin/donations/donation/{gift.donation.pk}/change/")
    receipt = IssuedDocument.objects.get()
    link = f"/admin/invoicing/issueddocument/{receipt.pk}/pdf/"
    assertContains(page, f'<a href="{link}">Receipt {receipt.number}</a>', html=True)
    assert "Receipt RCT-000001" in pdf_text(client.get(link))
    listing = client.get("/admin/invoicing/issueddocument/")
    assertContains(listing, f"{receipt.number}.pdf")
