"""The agreement is real: the application shows the tier's agreement (staff edit it in
the admin as new versions) with the benefits and their dates, asks for a contact and a
billing address, records who accepted which version when, and both the agreement and
each payment are downloadable as PDFs."""

import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone
from pypdf import PdfReader
from pytest_django.asserts import assertContains, assertInHTML, assertNotContains

from sponsors.benefits.models import Benefit
from sponsors.models import AgreementTemplate, Organisation, Sponsorship
from sponsors.terms import Term
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, PaymentFactory, TierFactory
from tests.sponsors.helpers import price_fields

pytestmark = pytest.mark.django_db


def application(tier, **extra):
    """The form as sent after reading the agreement written for the payment chosen."""
    payment = extra.get("payment_method", "invoice")
    return {
        "organisation": "",
        "payment_method": payment,
        "agreement_payment": payment,
        "agreement_version": "1",
        "accept_agreement": "on",
        "org-name": "Acme Databases",
        "org-website": "https://acme.test",
        "org-contact_name": "Ada Lovelace",
        "org-contact_email": "ada@acme.test",
        "org-billing_name": "Acme accounts",
        "org-billing_email": "billing@acme.test",
        "org-billing_address": "1 Example Street\n00100 Helsinki\nFinland",
        **extra,
    }


@pytest.fixture
def applicant(client):
    user = UserFactory(email="cto@acme.test")
    client.force_login(user)
    return user


def test_the_application_shows_the_agreement_and_the_benefits_with_dates(client, applicant):
    tier = TierFactory(name="Gold")
    Benefit.objects.create(tier=tier, name="Logo on the supporters page", due_days=14)
    page = client.get(f"/sponsors/apply/{tier.pk}/")
    assertContains(page, "version 1")
    assertContains(page, "<strong>Fee.</strong> €50,000 for each term of one year", html=False)
    assertInHTML(
        "<li><strong>Logo on the supporters page</strong>: within 14 days of the start</li>",
        page.content.decode(),
    )
    assertContains(page, 'name="org-billing_address"')
    assertContains(page, 'name="org-contact_email"')


def test_applying_records_who_accepted_which_version_when(client, applicant):
    tier = TierFactory(name="Gold")
    before = timezone.now()
    response = client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    assert response.status_code == 302
    sponsorship = Sponsorship.objects.get()
    assert sponsorship.agreement == AgreementTemplate.objects.get(tier=tier, version=1)
    assert sponsorship.accepted_by == applicant
    assert sponsorship.accepted_at >= before
    assert "Between the **MariaDB Foundation** and **Acme Databases**" in sponsorship.agreement_text
    organisation = Organisation.objects.get()
    assert organisation.billing_address.startswith("1 Example Street")
    assert (organisation.contact_name, organisation.contact_email) == (
        "Ada Lovelace",
        "ada@acme.test",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"accept_agreement": ""}, "Accept the agreement to apply; nothing was recorded."),
        ({"org-billing_address": ""}, "This field is required."),
        ({"agreement_version": "0"}, "Ensure this value is greater than or equal to 1."),
    ],
)
def test_no_acceptance_or_no_billing_address_records_nothing(client, applicant, change, message):
    tier = TierFactory()
    response = client.post(f"/sponsors/apply/{tier.pk}/", application(tier, **change))
    assertContains(response, message, status_code=400)
    assert not Sponsorship.objects.exists()


def test_staff_editing_the_agreement_makes_a_new_version_and_stale_forms_are_refused(
    client, applicant
):
    tier = TierFactory(name="Gold")
    client.get(f"/sponsors/apply/{tier.pk}/")  # version 1 shown
    staff = UserFactory(is_staff=True, is_superuser=True)
    admin = type(client)()
    admin.force_login(staff)
    first = AgreementTemplate.objects.get()
    response = admin.post(
        f"/admin/sponsors/agreementtemplate/{first.pk}/change/",
        {"tier": tier.pk, "text": "New wording for {organisation}."},
    )
    assert response.status_code == 302
    assert list(AgreementTemplate.objects.values_list("version", "text")) == [
        (2, "New wording for {organisation}."),
        (1, first.text),
    ]
    stale = client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    assertContains(stale, "you saw version 1; it is now version 2", status_code=400)
    assert not Sponsorship.objects.exists()
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier, agreement_version="2"))
    assert Sponsorship.objects.get().agreement_text == "New wording for Acme Databases."


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(
        io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)
    )
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_accepted_agreement_and_each_payment_download_as_pdf(client, applicant):
    tier = TierFactory(name="Gold")
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    sponsorship = Sponsorship.objects.get()
    text = pdf_text(client.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf"))
    assert "Acme Databases" in text
    assert "Agreement version: 1" in text
    assert "cto@acme.test" in text
    assert "€50,000" in text
    payment = PaymentFactory(
        sponsorship=sponsorship,
        stripe_id="in_123",
        amount=Decimal("50000"),
        currency="EUR",
        paid_at=timezone.now(),
    )
    receipt = pdf_text(client.get(f"/sponsors/payments/{payment.pk}/receipt.pdf"))
    assert "in_123" in receipt and "Total €50,000" in receipt and "Helsinki" in receipt
    assert "Receipt RCT-0" in receipt and "EUR 50,000.00" not in receipt  # one money format
    stranger = type(client)()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/sponsors/payments/{payment.pk}/receipt.pdf").status_code == 404
    assert stranger.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf").status_code == 404


def test_the_dashboard_shows_term_next_step_and_benefits_before_activation(client, applicant):
    tier = TierFactory(name="Gold")
    Benefit.objects.create(tier=tier, name="Thanks in the news", due_days=30)
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    page = client.get("/sponsors/dashboard/")
    assertContains(page, "Starts on the day the fee is paid, for one year")
    assertContains(
        page, "Staff review the application; then an invoice, due in 30 days, is sent to"
    )
    assertContains(page, "Thanks in the news: within 30 days of the start")
    assertContains(page, "Agreement, version 1 (PDF)</a>: accepted by cto@acme.test on")
    sponsorship = Sponsorship.objects.get()
    start = date(2026, 11, 1)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(
        status="active", starts_on=start, ends_on=Term.one_year_from(start).ends_on
    )
    page = client.get("/sponsors/dashboard/")
    assertContains(page, "<dd>1 November 2026 – 31 October 2027</dd>", html=True)
    assertContains(page, "Thanks in the news: due by 1 December 2026")


def test_the_agreement_shown_is_written_for_the_payment_chosen(client, applicant):
    tier = TierFactory(name="Gold")
    page = client.get(f"/sponsors/apply/{tier.pk}/")
    card = "€50,000 for each term of one year, paid by card, renewed every year until cancelled"
    invoice = "€50,000 for each term of one year, paid against an invoice due in 30 days"
    assertContains(page, f"<strong>Fee.</strong> {card}.", html=False)
    assertContains(page, f"<strong>Fee.</strong> {invoice}.", html=False)
    assertContains(page, '<input type="hidden" name="agreement_payment" value="card_annual">', html=True)  # fmt: skip
    shown = re.findall(r'<div class="prose agreement-text" data-payment="(\w+)"( hidden)?>', page.content.decode())  # fmt: skip
    assert shown == [("card_annual", ""), ("card_once", " hidden"), ("invoice", " hidden")]

    # Accepting the card text while choosing an invoice records nothing, and the page
    # then shows the invoice text to read and accept.
    read_card = application(tier, payment_method="invoice", agreement_payment="card_annual")
    refused = client.post(f"/sponsors/apply/{tier.pk}/", read_card)
    assertContains(refused, "The agreement you read says the fee is paid by card, renewed every year until cancelled; you chose invoice", status_code=400)  # fmt: skip
    assert not Sponsorship.objects.exists()
    assertContains(refused, '<input type="hidden" name="agreement_payment" value="invoice">', html=True, status_code=400)  # fmt: skip
    assert '<div class="prose agreement-text" data-payment="invoice">' in refused.content.decode()

    client.post(f"/sponsors/apply/{tier.pk}/", application(tier, payment_method="invoice"))
    assert "paid against an invoice due in 30 days" in Sponsorship.objects.get().agreement_text


def test_choosing_an_existing_organisation_reports_only_what_is_missing(client, applicant):
    organisation = OrganisationFactory(managers=[applicant])
    tier = TierFactory()
    data = {
        "organisation": str(organisation.pk),
        "payment_method": "invoice",
        "agreement_payment": "invoice",
        "agreement_version": "1",
    }
    response = client.post(f"/sponsors/apply/{tier.pk}/", data)
    assertContains(response, "Accept the agreement to apply; nothing was recorded.", status_code=400)  # fmt: skip
    assertNotContains(response, "This field is required.", status_code=400)
    assertContains(response, '<fieldset class="new-organisation" hidden>', status_code=400)
    assert not Sponsorship.objects.exists()


def test_an_existing_organisation_can_apply_with_its_details(client, applicant):
    organisation = OrganisationFactory(managers=[applicant])
    tier = TierFactory()
    data = application(tier, organisation=str(organisation.pk))
    assert client.post(f"/sponsors/apply/{tier.pk}/", data).status_code == 302
    assert Sponsorship.objects.get().organisation == organisation


def test_without_the_font_the_pdf_still_reads_in_latin_1(client, applicant, settings):
    settings.PDF_FONT_PATH = "/nonexistent/font.ttf"
    tier = TierFactory(name="Gold")
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    sponsorship = Sponsorship.objects.get()
    text = pdf_text(client.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf"))
    assert "Acme Databases" in text and "EUR 50,000" in text


def test_paying_by_invoice_instead_accepts_the_agreement_with_the_invoice_wording(
    client, applicant, settings
):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # Stripe unreachable: invoice offered
    tier = TierFactory(name="Gold")
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier, payment_method="card_annual"))
    sponsorship = Sponsorship.objects.get()
    assert "paid by card, renewed every year" in sponsorship.agreement_text

    step = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/",
        {**price_fields(sponsorship), "stage": "setup"},
    )
    assert (step.status_code, step.json()["offer_invoice"]) == (503, True)
    # What the page's script then reveals: the invoice, with the clause as it will read.
    page = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertContains(page, '<button class="button" type="submit">Accept and pay by invoice</button>', html=True)  # fmt: skip
    assertContains(page, "paid <strong>against an invoice due in 30 days</strong>")

    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay-by-invoice/")
    sponsorship.refresh_from_db()
    assert sponsorship.payment_method == "invoice"
    assert "paid against an invoice due in 30 days" in sponsorship.agreement_text
    assert "by card" not in sponsorship.agreement_text
    assert sponsorship.accepted_by == applicant
    text = pdf_text(client.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf"))
    assert "against an invoice due in 30 days" in text

    # Its payment page no longer offers a card.
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/", follow=True)
    assertContains(response, "This sponsorship is paid by invoice")
    assertNotContains(response, "data-card-payment")


def test_every_page_and_the_agreement_give_the_invoice_the_days_it_is_due_in(
    client, applicant, settings
):
    settings.INVOICE_DUE_DAYS = 45
    tier = TierFactory(name="Gold")
    client.post(f"/sponsors/apply/{tier.pk}/", application(tier))
    sponsorship = Sponsorship.objects.get()
    assert "paid against an invoice due in 45 days" in sponsorship.agreement_text
    page = client.get("/sponsors/dashboard/")
    assertContains(page, "then an invoice, due in 45 days, is sent to")
    assertNotContains(page, "30 days")
