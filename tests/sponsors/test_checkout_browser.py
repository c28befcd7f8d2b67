"""Live mode in a real browser: the pay page hands the payer to Stripe Checkout.

Stripe's hosted page cannot be reached offline, so the session Stripe would create
points straight at the success URL, as if the payer had paid there.
"""

from types import SimpleNamespace

import pytest
import stripe
from django.test import Client

from sponsors import stripe_gateway
from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.artifacts import ARTIFACTS
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pay_page_sends_the_payer_to_checkout_and_back(live_server, page, settings, monkeypatch):
    settings.STRIPE_API_BASE = ""
    sessions = []

    def create_session(self, params=None, options=None):
        sessions.append(params)
        return SimpleNamespace(id="cs_test_b1", url=params["success_url"])

    monkeypatch.setattr(stripe.checkout.SessionService, "create", create_session)
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_live")
    monkeypatch.setattr(stripe_gateway, "create_plan", lambda tier: "plan_gold")

    organisation = OrganisationFactory(name="Acme Databases")
    manager = organisation.managers.get()
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.CARD_ANNUAL, manager
    )
    client = Client()
    client.force_login(manager)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )

    page.goto(f"{live_server.url}/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assert page.locator("input[name=number]").count() == 0  # no card field on this site
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sponsor-pay-live.png"))
    button = page.get_by_role("button", name="Continue to pay €50,000 every year")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/sponsors/dashboard/?paid=1")
    assert "Your payment is confirmed here as soon as Stripe tells us" in page.content()
    assert sessions[0]["metadata"] == {"sponsorship": str(sponsorship.pk)}
