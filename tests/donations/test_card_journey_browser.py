"""The donor's journey in fake mode, in a real browser against localstripe.

localstripe (the fake of ``make run`` and the tests) has no Checkout and no customer
portal: the donor types the test card on /donate/, and localstripe sends its own signed
events to the live server. The donor gives once and monthly, sees each payment
confirmed, downloads a receipt, cancels the monthly gift on the site and finds the gift
counted on /funding/. The screenshots are the ones docs/donations.md shows.
"""

import time
from pathlib import Path

import pytest
from django.utils import timezone

from donations.models import Donation
from donations.signing import manage_token
from tests.donations.factories import DonationFactory, GiftFactory
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit
from tests.localstripe import deliver_events
from tests.sponsors.helpers import WEBHOOK_SECRET

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture
def localstripe_sends_events(settings, fake_stripe, live_server):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    deliver_events(fake_stripe, f"{live_server.url}/stripe/webhook/")
    yield fake_stripe
    deliver_events(fake_stripe, "http://127.0.0.1:9/stripe/webhook/")


def reload_until(page, check, seconds=20):
    """What a donor does while Stripe's event is on its way: look again."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, page.locator("main").inner_text()
        page.wait_for_timeout(500)
        page.reload()


def heading(page) -> str:
    return page.get_by_role("heading", level=1).inner_text()


def give(page, base, *, monthly, preset="", amount="", button):
    page.goto(f"{base}/donate/")
    assert page.get_by_text("Test mode: card details go to the test payment server").is_visible()
    if monthly:
        page.get_by_label("Monthly").check()
    if preset:
        page.get_by_label(preset, exact=True).check()
    if amount:
        page.locator("[data-custom-amount]").fill(amount)
    page.get_by_label("E-mail for the receipt").fill("ada@example.org")
    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry month").fill("12")
    page.get_by_label("Expiry year").fill("2034")
    page.get_by_label("CVC").fill("123")
    if not monthly:
        page.get_by_label("Thank me by name on the public donor wall").check()
        page.get_by_label("Name to show").fill("Ada L.")
    return page.get_by_role("button", name=button)


@pytest.mark.parametrize("width", [390, 1280])
def test_give_once_and_monthly_download_a_receipt_cancel_and_see_it_counted(
    live_server, browser, localstripe_sends_events, width
):
    DOCS_IMG.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    base = live_server.url

    # Once: €37.50 with the test card.
    button = give(page, base, monthly=False, amount="37.50", button="Give €37.50 once")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(DOCS_IMG / f"donate-test-card-{width}.png"), full_page=True)
    button.click()
    page.wait_for_url("**/donate/thanks/?gift=*")
    reload_until(page, lambda: heading(page) == "Thank you for your gift")
    today = timezone.localdate()
    assert (
        f"Stripe has confirmed your payment of €37.50 on {today.day} {today:%B %Y}"
        in page.locator("main").inner_text()
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(DOCS_IMG / f"donate-thanks-{width}.png"), full_page=True)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the receipt (PDF)").click()
    assert download.value.suggested_filename.startswith("receipt-")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF-")

    # Monthly: €10 every month, then cancelled from the manage page.
    give(page, base, monthly=True, preset="10", button="Give €10 every month").click()
    page.wait_for_url("**/donate/thanks/?gift=*")
    reload_until(page, lambda: heading(page) == "Thank you for your gift")
    assert "this month's part of your monthly gift" in page.locator("main").inner_text()
    page.get_by_role("link", name="Manage your gift").click()
    facts = page.locator("dl.facts")
    assert "€10, monthly" in facts.inner_text()
    assert "Active (monthly)" in facts.inner_text()
    page.screenshot(path=str(DOCS_IMG / f"donate-manage-{width}.png"), full_page=True)
    with page.expect_download() as download:
        page.get_by_role("link", name="Receipt (PDF)").click()
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF-")
    page.get_by_label("Yes, stop my monthly gift of €10").check()
    page.get_by_role("button", name="Cancel the monthly gift").click()
    assert page.get_by_text("Your monthly gift is being cancelled").is_visible()
    reload_until(page, lambda: "Cancelled" in facts.inner_text())
    assert page.get_by_role("button", name="Cancel the monthly gift").count() == 0

    # The public funding page counts the donor and thanks her by the name she gave.
    page.goto(f"{base}/funding/")
    assert f"1 individual donor gave in {today.year}." in page.locator("main").inner_text()
    assert page.locator(".donor-wall li").all_inner_texts() == ["Ada L."]
    context.close()


def test_the_fake_mode_donor_pages_reflow_and_pass_axe(live_server, browser, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # fake mode; these pages call no Stripe
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
    ]
    overflowing, violations, runs = [], [], 0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="load")
            assert response is not None and response.status == 200, path
            if path == "/donate/":
                assert page.get_by_label("Card number").is_visible()
            wide, blocking, count = audit(page, path, width)
            overflowing += wide
            violations += blocking
            runs += count
        context.close()
    assert runs == len(SCHEMES) * len(paths)
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
