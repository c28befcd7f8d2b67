"""A refused application shows the logo it keeps, on a phone, and applying uses it."""

import pytest
from PIL import Image

from sponsors.models import Organisation
from tests.artifacts import ARTIFACTS
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_application_shows_and_then_uses_the_kept_logo(
    live_server, browser, tmp_path, client
):
    ARTIFACTS.mkdir(exist_ok=True)
    logo = tmp_path / "acme-logo.png"
    Image.new("RGB", (120, 40), "navy").save(logo, format="PNG")
    client.force_login(UserFactory(email="cto@acme.test"))
    tier = TierFactory(name="Gold")
    context = browser.new_context(viewport={"width": 390, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(live_server.url + f"/sponsors/apply/{tier.pk}/")
    for field, value in [("name", "Acme Databases"), ("website", "https://acme.test"),
                         ("contact_name", "Ada Lovelace"), ("contact_email", "ada@acme.test"),
                         ("billing_name", "Acme accounts"), ("billing_email", "billing@acme.test"),
                         ("billing_address", "1 Example Street\nHelsinki")]:  # fmt: skip
        page.fill(f"#id_org-{field}", value)
    page.set_input_files("#id_org-logo_upload", str(logo))
    page.check("input[name=payment_method][value=invoice]")
    page.get_by_role("button", name="Accept and apply").click()  # the agreement not ticked
    kept = page.locator("#held-logo")
    assert "Your logo acme-logo.png is kept" in kept.inner_text()
    assert kept.locator("img").evaluate("img => img.naturalWidth") == 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    kept.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "apply-kept-logo-390.png"))
    page.check("#id_accept_agreement")
    page.get_by_role("button", name="Accept and apply").click()
    assert Organisation.objects.get(name="Acme Databases").logo_thumbnail
    context.close()
