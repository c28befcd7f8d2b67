"""The documents a sponsorship's managers see listed, each with its PDF: how many
queries the pages take whatever the number of sponsorships and documents, who may open a
document, and a payment recorded before its receipt was numbered."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django.asserts import assertContains

from invoicing.models import IssuedDocument
from sponsors import documents
from sponsors.models import Sponsorship
from sponsors.services import applications, recording
from sponsors.terms import Term, long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, PaymentFactory, TierFactory

pytestmark = pytest.mark.django_db


def renewed_sponsorship(organisation, number):
    """A sponsorship with a paid term, a renewal invoice open and part of a payment refunded."""
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.INVOICE, None, agreement_version=1
    )
    recording.record_payment(
        sponsorship.pk,
        stripe_id=f"pi_{number}",
        payment_intent_id=f"pi_{number}",
        amount_minor=5_000_000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    sponsorship.refresh_from_db()
    documents.issue_invoice(
        sponsorship,
        stripe_invoice_id=f"in_{number}",
        due_on=timezone.localdate() + timedelta(days=30),
        hosted_url="",
        term=Term.one_year_from(sponsorship.ends_on + timedelta(days=1)),
    )
    payment = sponsorship.payments.get()
    payment.refunds.create(
        stripe_charge_id=f"ch_{number}",
        amount_minor=100_000,
        currency="EUR",
        refunded_at=timezone.now(),
    )
    return sponsorship


def queries(client, path) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_the_pages_take_as_many_queries_for_one_sponsorship_as_for_four(client):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    renewed_sponsorship(organisation, 0)
    client.force_login(manager)
    pages = ["/sponsors/dashboard/", organisation.get_absolute_url()]
    client.get(pages[0])  # the session and the content types, once
    one = [queries(client, page) for page in pages]
    for number in range(1, 4):
        renewed_sponsorship(organisation, number)
    four = [queries(client, page) for page in pages]
    assert four == one
    page = client.get(pages[0])
    assert page.content.decode().count('class="document-open"') == 4
    assertContains(page, "(€1,000 refunded)", count=4)


def test_only_the_organisations_managers_open_its_documents(client):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = renewed_sponsorship(organisation, 0)
    for doc in IssuedDocument.objects.about(sponsorship):
        url = f"/sponsors/sponsorships/{sponsorship.pk}/documents/{doc.number}.pdf"
        client.force_login(UserFactory())
        assert client.get(url).status_code == 404
        client.force_login(manager)
        answer = client.get(url)
        assert answer.status_code == 200 and answer.content.startswith(b"%PDF-")
        assert f'filename="{doc.number}.pdf"' in answer["Content-Disposition"]
    other = renewed_sponsorship(OrganisationFactory(managers=[manager]), 1)
    stranger_doc = IssuedDocument.objects.about(other).first()
    url = f"/sponsors/sponsorships/{sponsorship.pk}/documents/{stranger_doc.number}.pdf"
    assert client.get(url).status_code == 404  # another sponsorship's number under this one


def test_a_payment_recorded_before_receipts_were_numbered_is_listed_and_gets_one(client):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = applications.apply(organisation, TierFactory(), "card_once", None)
    payment = PaymentFactory(sponsorship=sponsorship, stripe_id="pi_old", amount=Decimal(500))
    client.force_login(manager)
    paid_on = long_date(timezone.localtime(payment.paid_at).date())
    assertContains(
        client.get("/sponsors/dashboard/"),
        f'<li><a href="/sponsors/payments/{payment.pk}/receipt.pdf">Receipt (PDF)</a>: '
        f"€500 paid on {paid_on}</li>",
        html=True,
    )
    assert client.get(f"/sponsors/payments/{payment.pk}/receipt.pdf").status_code == 200
    (receipt,) = IssuedDocument.objects.receipts()
    assertContains(
        client.get("/sponsors/dashboard/"),
        f"Receipt {receipt.number} (PDF)</a>: €500 paid on {paid_on} for no term",
    )
