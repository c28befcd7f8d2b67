"""The invoice path against the Stripe fake `make run` uses: on approval the outbox has
Stripe issue a real one-off invoice (send_invoice, due in 30 days); the site records it,
the dashboard offers it as a PDF, the billing contact gets a mail, and no page speaks of
an invoice before it exists."""

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from payments import gateway
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from sponsors.terms import long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def invoicing_stripe(settings, invoicing_localstripe_url):
    settings.STRIPE_API_BASE = invoicing_localstripe_url


def test_approval_issues_the_invoice_in_stripe_and_the_sponsor_gets_it(
    invoicing_stripe, client, django_capture_on_commit_callbacks
):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    client.force_login(manager)
    before = client.get("/sponsors/dashboard/")
    assertContains(
        before, f"then an invoice, due in 30 days, is sent to {organisation.billing_email}"
    )
    assertNotContains(before, "INV-")
    assert (
        client.get(f"/sponsors/sponsorships/{sponsorship.pk}/documents/INV-000001.pdf").status_code
        == 404
    )

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))

    sponsorship.refresh_from_db()
    invoice = gateway.client().v1.invoices.retrieve(sponsorship.stripe_invoice_id).to_dict()
    assert (invoice["status"], invoice["collection_method"]) == ("open", "send_invoice")
    assert invoice["metadata"] == {"sponsorship": str(sponsorship.pk)}
    assert invoice["amount_due"] == 5000000
    assert (sponsorship.invoice_due_on - timezone.localdate()).days == 30

    (billing_mail,) = [m for m in mail.outbox if m.to == [organisation.billing_email]]
    assert sponsorship.invoice_number in billing_mail.subject
    assert "/documents/" in billing_mail.body  # a signed link: no account needed

    after = client.get("/sponsors/dashboard/")
    pdf_url = f"/sponsors/sponsorships/{sponsorship.pk}/documents/{sponsorship.invoice_number}.pdf"
    assertContains(after, f'<a href="{pdf_url}">download the invoice (PDF)</a>', html=True)
    assertContains(after, f"Invoice {sponsorship.invoice_number} was sent to")
    # listed with the documents until it is paid, with the term it pays for
    assertContains(
        after,
        f'<li class="document-open"><a href="{pdf_url}">Invoice {sponsorship.invoice_number} '
        "(PDF)</a>: €50,000 for one year from the day the fee is paid (<strong>open: due on "
        f"{long_date(sponsorship.invoice_due_on)}</strong>)</li>",
        html=True,
    )
    pdf = client.get(pdf_url)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")
    assert sponsorship.invoice_number in pdf["Content-Disposition"]


def test_an_approved_invoice_not_yet_issued_is_not_called_sent(client):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    sponsorship.status = Sponsorship.Status.AWAITING_PAYMENT
    sponsorship.save(update_fields=["status"])
    client.force_login(manager)
    page = client.get("/sponsors/dashboard/")
    assertContains(page, "the invoice is being issued")
    assertNotContains(page, "e-mailed")


def test_a_one_off_invoice_without_subscription_details_is_recorded(post_event):
    # Invoices of API versions before 2025 carry "subscription_details": null when they
    # belong to no subscription.
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.INVOICE, None
    )
    response = post_event(
        event(
            "evt_o1",
            "invoice.paid",
            {
                "id": "in_once1",
                "object": "invoice",
                "amount_paid": 5000000,
                "currency": "eur",
                "created": 1767225600,
                "subscription": None,
                "subscription_details": None,
                "metadata": {"sponsorship": str(sponsorship.pk)},
            },
        )
    )
    assert response.content.decode().strip() == "processed"
    assert sponsorship.payments.get().stripe_id == "in_once1"
