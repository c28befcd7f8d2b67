"""In a real browser: Stripe unreachable while paying, then the invoice instead."""

import pytest
from django.test import Client

from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_sponsor_is_offered_the_invoice_when_stripe_is_down(
    live_server, page, screenshot, settings, monkeypatch
):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # a closed port: Stripe unreachable
    organisation = OrganisationFactory(name="Acme Databases")
    manager = organisation.managers.get()
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.CARD_ONCE, manager
    )
    client = Client()
    client.force_login(manager)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )

    page.goto(f"{live_server.url}/sponsors/sponsorships/{sponsorship.pk}/pay/")
    page.fill("#id_number", "4242 4242 4242 4242")
    page.fill("#id_exp_month", "12")
    page.fill("#id_exp_year", "2030")
    page.fill("#id_cvc", "123")
    page.get_by_role("button", name="Pay €50,000").click()
    alert = page.get_by_role("alert")
    assert "cannot be reached just now, so nothing was charged" in alert.inner_text()
    screenshot("sponsor-pay-stripe-down", full_page=True)

    page.get_by_role("button", name="Pay by invoice").click()
    page.wait_for_url("**/sponsors/dashboard/")
    assert "An invoice is sent to the billing contact once staff approve" in page.content()
    sponsorship.refresh_from_db()
    assert sponsorship.payment_method == Sponsorship.Payment.INVOICE
