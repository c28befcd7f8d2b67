"""A monthly donation in a real browser, from the form to the thank-you page.

Stripe's hosted page cannot be reached offline, so the session Stripe would create
points straight at the success URL, as if the donor had paid there.
"""

from types import SimpleNamespace

import pytest
import stripe

from donations.models import Donation
from tests.artifacts import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_monthly_gift_from_the_form_to_the_thank_you_page(
    live_server, browser, monkeypatch, width
):
    sessions = []

    def create_session(self, params=None, options=None):
        sessions.append(params)
        return SimpleNamespace(id="cs_test_browser", url=params["success_url"])

    monkeypatch.setattr(stripe.checkout.SessionService, "create", create_session)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Donate").first.click()
    page.wait_for_url("**/donate/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_label("Monthly").check()
    page.get_by_label("50", exact=True).check()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"donate-{width}.png"), full_page=True)
    page.get_by_role("button", name="Donate").click()
    page.wait_for_url("**/donate/thanks/**")
    assert page.get_by_role("heading", level=1).inner_text() == "Thank you for your gift"
    [session] = sessions
    assert session["mode"] == "subscription"
    assert session["line_items"][0]["price_data"]["unit_amount"] == 5000
    donation = Donation.objects.get()
    assert (donation.frequency, donation.amount) == ("monthly", 50)
    context.close()


def test_the_funding_page_reflows_on_a_phone(live_server, browser):
    context = browser.new_context(viewport={"width": 320, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/funding/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(ARTIFACTS / "funding-320.png"), full_page=True)
    context.close()
