"""A document's signed link expires (issue 58, item 6: a receipt's link with its billing
details worked for ever, and nginx logged it whole): it works for
DOCUMENT_LINK_MAX_AGE_DAYS, then its page answers 410 with a button that mails a fresh
link to the address the document was issued to, never to the one who asks."""

import re
from datetime import datetime, timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone
from pytest_django.asserts import assertContains

from invoicing import services
from invoicing.links import public_pdf_url, public_url
from invoicing.models import IssuedDocument
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db

# Month ends, a year's end and 29 February: a link made then, opened the days around its end.
MADE_ON = [datetime(2026, 1, 31, 23, 30), datetime(2027, 12, 31, 12), datetime(2028, 2, 29, 8)]


def receipt(email="billing@acme.example") -> IssuedDocument:
    return services.issue(
        IssuedDocument.Kind.RECEIPT,
        UserFactory(),
        "gift-1",
        total=Decimal("50.00"),
        currency="EUR",
        buyer={"name": "Acme Databases", "email": email},
        lines=[{"description": "Gift to the MariaDB Foundation", "amount": Decimal("50.00")}],
        no_vat_reason="A gift: no VAT.",
        paid={"on": "2026-01-31", "how": "card"},
    )


def path_of(url: str) -> str:
    return urlsplit(url).path


@pytest.mark.parametrize("made", MADE_ON, ids=lambda day: f"{day:%Y-%m-%d}")
def test_a_link_works_for_its_days_then_offers_a_fresh_one(
    made, settings, django_capture_on_commit_callbacks
):
    settings.DOCUMENT_LINK_MAX_AGE_DAYS = 60
    made = timezone.make_aware(made)
    with time_machine.travel(made, tick=False):
        document = receipt()
        page, pdf = path_of(public_url(document)), path_of(public_pdf_url(document))
    client = Client()
    with time_machine.travel(made + timedelta(days=60) - timedelta(minutes=1), tick=False):
        assertContains(client.get(page), f"Receipt {document.number}")
        assert client.get(pdf)["Content-Type"] == "application/pdf"
    with time_machine.travel(made + timedelta(days=60, minutes=1), tick=False):
        for expired in (page, pdf):
            response = client.get(expired)
            assertContains(response, "This link has expired", status_code=410)
            assertContains(response, "Send a fresh link", status_code=410)
            assert "Acme Databases" not in response.content.decode()  # no billing details
        with django_capture_on_commit_callbacks(execute=True):
            sent = client.post(page)
        assertContains(sent, "is on its way to the address it was issued to")
        [message] = mail.outbox
        assert message.to == ["billing@acme.example"]
        fresh_page, fresh_pdf = re.findall(r"https?://\S+/documents/\S+", message.body)
        assert "These links work for 60 days." in message.body
        assertContains(client.get(path_of(fresh_page)), f"Receipt {document.number}")
        assert client.get(path_of(fresh_pdf))["Content-Type"] == "application/pdf"
        # Pressed again (or by someone replaying the old link): no second mail for a while.
        with django_capture_on_commit_callbacks(execute=True):
            client.post(page)
        assert len(mail.outbox) == 1


def test_a_tampered_or_foreign_token_is_not_found_and_sends_nothing(
    django_capture_on_commit_callbacks,
):
    document = receipt()
    token = path_of(public_url(document)).strip("/").rsplit("/", 1)[-1]
    client = Client()
    for bad in (token[:-2] + "xx", "1", "eyJub3QiOiJvdXJzIn0:1vQx7Z:forged"):
        assert client.get(f"/documents/{bad}/").status_code == 404
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(f"/documents/{bad}/").status_code == 404
    assert mail.outbox == []


def test_an_expired_link_to_a_document_without_an_address_points_to_the_contact_page(settings):
    settings.DOCUMENT_LINK_MAX_AGE_DAYS = 1
    document = receipt(email="")
    page = path_of(public_url(document))
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        response = Client().get(page)
    assertContains(response, "names no address to send a fresh link to", status_code=410)
    assert "Send a fresh link" not in response.content.decode()
