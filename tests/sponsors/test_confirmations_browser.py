"""The cancel confirmation in a real browser: the danger button is red in both colour
schemes (it wins the cascade over "a.button"/"button.button"), the page reflows at 320 px."""

import pytest
from django.test import Client

from sponsors.services import applications
from tests.artifacts import ARTIFACTS
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DANGER = {"light": "rgb(163, 38, 42)", "dark": "rgb(255, 154, 154)"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_cancel_confirmation_is_red_and_reflows(live_server, browser, scheme):
    organisation = OrganisationFactory(name="Acme Databases")
    manager = organisation.managers.get()
    sponsorship = applications.apply(organisation, TierFactory(), "card_annual", manager)
    client = Client()
    client.force_login(manager)
    context = browser.new_context(viewport={"width": 320, "height": 800}, color_scheme=scheme)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/sponsors/organisations/{organisation.pk}/")
    link = page.get_by_role("link", name="Withdraw this application…")
    assert link.evaluate("e => getComputedStyle(e).backgroundColor") == DANGER[scheme]
    link.click()
    page.wait_for_url(f"**/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    button = page.get_by_role("button", name="Withdraw the application")
    assert button.evaluate("e => getComputedStyle(e).backgroundColor") == DANGER[scheme]
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"sponsor-cancel-confirm-{scheme}.png"), full_page=True)
    button.click()
    page.wait_for_url(f"**/sponsors/organisations/{organisation.pk}/")
    assert page.get_by_text("Your application for Gold was withdrawn.").is_visible()
    page.get_by_role("button", name="Undo the withdrawal").click()
    assert page.get_by_text("Your application is back, exactly as it was.").is_visible()
    context.close()
