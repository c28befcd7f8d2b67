"""An invoice accounts payable can pay: issued with the site's own number when staff
approve an invoice sponsorship (localstripe with scripts/localstripe_invoicing.py, as on
`make run`), carrying the issuer, the buyer, the dates, the VAT and how to pay; the mailed
link opens it without an account; paying by transfer (staff, one step) or by card (the
webhook) records the payment and closes it."""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from core.formatting import long_date
from invoicing.models import IssuedDocument
from payments import gateway
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.foundation.factories import UserFactory
from tests.invoicing.helpers import pdf_text
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def invoicing_stripe(settings, invoicing_localstripe_url):
    settings.STRIPE_API_BASE = invoicing_localstripe_url


@pytest.fixture
def approved(invoicing_stripe, django_capture_on_commit_callbacks):
    """A Gold sponsorship by invoice from a German company with a VAT number, approved."""

    def make(**organisation):
        manager = UserFactory()
        org = OrganisationFactory(
            managers=[manager],
            billing_name="Beispiel GmbH, Buchhaltung",
            billing_address="Musterstraße 1\n10115 Berlin",
            billing_country="DE",
            vat_id="DE123456789",
            **organisation,
        )
        sponsorship = applications.apply(org, TierFactory(), Sponsorship.Payment.INVOICE, None)
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            lifecycle.approve(sponsorship, UserFactory(is_staff=True))
        sponsorship.refresh_from_db()
        return sponsorship, manager

    return make


def _invoice_mail(sponsorship):
    (message,) = [m for m in mail.outbox if m.to == [sponsorship.organisation.billing_email]]
    return message


def test_the_invoice_carries_what_accounts_payable_needs(approved, client, settings):
    sponsorship, manager = approved()
    invoice = IssuedDocument.objects.get(kind="invoice")
    assert re.fullmatch(r"INV-\d{6}", invoice.number)
    assert sponsorship.invoice_number == invoice.number
    client.force_login(manager)
    text = pdf_text(
        client.get(f"/sponsors/sponsorships/{sponsorship.pk}/documents/{invoice.number}.pdf")
    )
    today = timezone.localdate()
    for expected in [
        f"Invoice {invoice.number}",
        settings.INVOICE_ISSUER_NAME,
        "Demo street 1",
        f"Business id: {settings.INVOICE_ISSUER_BUSINESS_ID}",
        f"VAT number: {settings.INVOICE_ISSUER_VAT_NUMBER}",
        "DEMO ISSUER",
        "Beispiel GmbH, Buchhaltung",
        "Musterstraße 1",
        "Germany",
        "VAT number: DE123456789",
        f"Date: {long_date(today)}",
        f"Due date: {long_date(sponsorship.invoice_due_on)}",
        "Gold sponsor for Company",
        "one year from the day the fee is paid",
        "VAT 0 %: reverse charge €0",
        "Total €50,000",
        "Reverse charge: the customer (DE123456789) accounts for the VAT",
        f"IBAN {settings.INVOICE_BANK_IBAN}",
        f"BIC {settings.INVOICE_BANK_BIC}",
        f"Reference to quote: {invoice.number}",
        "Test mode: Stripe's fake (localstripe) has no online payment page",
    ]:
        assert expected in text, expected


def test_a_domestic_buyer_pays_the_vat_included_in_the_price(
    approved, client, django_capture_on_commit_callbacks
):
    sponsorship, manager = approved()
    organisation = sponsorship.organisation
    organisation.billing_country, organisation.vat_id = "FI", "FI12345678"
    organisation.save()
    # a second sponsorship of the same organisation: the next number of the one sequence
    second = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(second, UserFactory(is_staff=True))
    first, following = IssuedDocument.objects.invoices().order_by("id")
    assert int(following.number[4:]) == int(first.number[4:]) + 1
    client.force_login(manager)
    text = pdf_text(
        client.get(f"/sponsors/sponsorships/{second.pk}/documents/{following.number}.pdf")
    )
    assert "Net amount €39,840.64" in text
    assert "VAT 25.5 % (included) €10,159.36" in text
    assert "Reverse charge" not in text


def test_the_mailed_link_opens_the_invoice_for_the_billing_contact_without_an_account(
    approved, client
):
    sponsorship, _manager = approved()
    message = _invoice_mail(sponsorship)
    invoice = IssuedDocument.objects.get(kind="invoice")
    assert invoice.number in message.subject
    assert f"quoting the reference {invoice.number}" in message.body
    page_url, pdf_url = re.findall(r"https?://\S+/documents/\S+", message.body)
    page = client.get(urlsplit(page_url).path)
    assert page.status_code == 200
    assertContains(page, f"<strong>{invoice.number}</strong>", html=True)
    assertContains(page, "How to pay")
    pdf = client.get(urlsplit(pdf_url).path)
    assert f"Invoice {invoice.number}" in pdf_text(pdf)
    token = page_url.rstrip("/").rsplit("/", 1)[-1]
    assert client.get(f"/documents/{token[:-2]}xx/").status_code == 404
    assert client.get("/documents/1/").status_code == 404


def test_staff_record_a_bank_transfer_in_one_step_and_the_invoice_closes(
    approved, admin_client, client, django_capture_on_commit_callbacks, post_event
):
    sponsorship, manager = approved()
    invoice = IssuedDocument.objects.get(kind="invoice")
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client.post(
            "/admin/sponsors/sponsorship/",
            {"action": "record_transfer", "_selected_action": [sponsorship.pk]},
            follow=True,
        )
    assertContains(answer, "1 sponsorship paid by transfer.")
    sponsorship.refresh_from_db()
    assert sponsorship.status == Sponsorship.Status.ACTIVE and sponsorship.starts_on
    invoice.refresh_from_db()
    assert (invoice.paid_on, invoice.paid_by) == (timezone.localdate(), "transfer")
    (payment,) = sponsorship.payments.all()
    assert (payment.stripe_id, payment.amount) == (f"transfer-{invoice.number}", invoice.total)
    receipt = IssuedDocument.objects.get(kind="receipt")
    # Stripe was told the invoice was paid outside it; its invoice.paid counts nothing more
    stripe_invoice = gateway.client().v1.invoices.retrieve(invoice.occasion)
    assert stripe_invoice.status == "paid"
    paid = stripe_invoice.to_dict() | {"paid_out_of_band": True}
    assert post_event(event("evt_oob", "invoice.paid", paid)).status_code == 200
    assert sponsorship.payments.count() == 1
    # the billing contact's link now says it is paid, and offers no payment
    page = client.get(
        urlsplit(re.findall(r"https?://\S+/documents/\S+", _invoice_mail(sponsorship).body)[0]).path
    )
    assertContains(page, "Thank you: nothing more to pay.")
    assertNotContains(page, "How to pay")
    client.force_login(manager)
    text = pdf_text(client.get(f"/sponsors/payments/{payment.pk}/receipt.pdf"))
    assert f"Receipt {receipt.number}" in text
    assert f"bank transfer against invoice {invoice.number}" in text


def test_paying_on_stripe_closes_the_invoice(approved, post_event):
    sponsorship, _manager = approved()
    invoice = IssuedDocument.objects.get(kind="invoice")
    paid = {
        "id": invoice.occasion,
        "object": "invoice",
        "amount_paid": 5000000,
        "currency": "eur",
        "metadata": {"sponsorship": str(sponsorship.pk)},
        "created": int(timezone.now().timestamp()),
        "status_transitions": {"paid_at": int(timezone.now().timestamp())},
    }
    answer = post_event(event("evt_card", "invoice.paid", paid))
    assert answer.status_code == 200, answer.content
    invoice.refresh_from_db()
    assert invoice.paid_by == "card" and invoice.paid_on, answer.content
    sponsorship.refresh_from_db()
    assert sponsorship.status == Sponsorship.Status.ACTIVE


def test_the_admin_opens_every_invoice_and_receipt_of_a_sponsorship(approved, client):
    sponsorship, _manager = approved()
    invoice = IssuedDocument.objects.get(kind="invoice")
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_sponsorship", "view_issueddocument"])
    )
    client.force_login(viewer)
    page = client.get(f"/admin/sponsors/sponsorship/{sponsorship.pk}/change/")
    link = f"/admin/invoicing/issueddocument/{invoice.pk}/pdf/"
    assertContains(page, f'<a href="{link}">Invoice {invoice.number}</a>', html=True)
    assert f"Invoice {invoice.number}" in pdf_text(client.get(link))
    client.force_login(UserFactory(is_staff=True))  # staff without the permission
    assert client.get(link).status_code == 403
