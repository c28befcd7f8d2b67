"""In a real browser: Stripe unreachable while paying, then the invoice instead."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.e2e.cards import PAYS, type_card
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_sponsor_is_offered_the_invoice_when_stripe_is_down(
    live_server, page, screenshot, settings, localstripe_url
):
    # The page's Stripe.js loads; the site cannot reach Stripe's API (a closed port).
    settings.STRIPE_JS_URL = f"{localstripe_url}/js.stripe.com/v3/"
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
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
    assert page.get_by_role("button", name="Pay by invoice").is_hidden()
    type_card(page, PAYS)
    page.get_by_role("button", name="Pay €50,000").click()
    expect(page.locator("[data-card-error]")).to_contain_text(
        "cannot be reached just now, so nothing was charged"
    )
    screenshot("sponsor-pay-stripe-down", full_page=True)

    page.get_by_role("button", name="Pay by invoice").click()
    page.wait_for_url("**/sponsors/dashboard/")
    assert "An invoice is sent to the billing contact once staff approve" in page.content()
    sponsorship.refresh_from_db()
    assert sponsorship.payment_method == Sponsorship.Payment.INVOICE
