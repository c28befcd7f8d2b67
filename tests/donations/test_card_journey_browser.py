"""The donor pages, with the card field of localstripe's Stripe.js drawn, audited in a real
browser: they reflow and pass axe at every width, light and dark. The donor's journey itself (give once and monthly, receipts, cancel,
/funding/) is walked on the system `make run` starts, in
tests/e2e/test_donor_journey_devstack_browser.py.
"""

import pytest

from donations.models import Donation
from donations.signing import manage_token
from tests.donations.factories import DonationFactory, GiftFactory
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_donor_pages_reflow_and_pass_axe(live_server, browser, settings, fake_stripe):
    settings.STRIPE_JS_URL = f"{fake_stripe}/js.stripe.com/v3/"
    paid = GiftFactory(
        donation__frequency=Donation.Frequency.MONTHLY,
        donation__status=Donation.Status.ACTIVE,
        donation__stripe_subscription_id="sub_donor_1",
        donation__stripe_customer_id="cus_donor_1",
    ).donation
    paid_token = manage_token(paid.reference)
    pending_token = manage_token(DonationFactory().reference)
    paths = [
        "/donate/",
        f"/donate/thanks/?gift={paid_token}",
        f"/donate/thanks/?gift={pending_token}",
        "/donate/thanks/",
        f"/donate/manage/{paid_token}/",
        f"/donate/manage/{paid_token}/statement/{paid.gifts.get().paid_at.year}/",
    ]
    overflowing, violations, runs = [], [], 0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="load")
            assert response is not None and response.status == 200, path
            if path == "/donate/":
                assert page.locator("[data-card-element] input").first.is_visible()
            wide, blocking, count = audit(page, path, width)
            overflowing += wide
            violations += blocking
            runs += count
        context.close()
    assert runs == len(SCHEMES) * len(paths)
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
