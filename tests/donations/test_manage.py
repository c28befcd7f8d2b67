"""Donors manage their gifts without an account, through the signed link in every receipt."""

import re
from types import SimpleNamespace

import pytest
import stripe
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from donations.models import Donation
from donations.signing import manage_token, reference_from_token
from tests.donations.factories import GiftFactory
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
PORTAL_URL = "https://billing.stripe.com/p/session/test_portal"


@pytest.fixture
def portal(monkeypatch):
    opened = []

    def create(self, params=None, options=None):
        opened.append(params)
        return SimpleNamespace(url=PORTAL_URL)

    monkeypatch.setattr(stripe.billing_portal.SessionService, "create", create)
    return opened


RUNNING_MONTHLY = {
    "donation__stripe_customer_id": "cus_donor_7",
    "donation__frequency": Donation.Frequency.MONTHLY,
    "donation__status": Donation.Status.ACTIVE,
}


def test_the_link_shows_the_gift_and_opens_stripes_portal(client, portal):
    gift = GiftFactory(**RUNNING_MONTHLY)
    url = f"/donate/manage/{manage_token(gift.donation.reference)}/"
    page = client.get(url)
    assert page.status_code == 200
    assert "€25, monthly" in page.content.decode()
    assertContains(page, "Manage on Stripe's secure page")
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == PORTAL_URL
    assert portal == [{"customer": "cus_donor_7", "return_url": f"http://testserver{url}"}]


@pytest.mark.parametrize(
    "donation",
    [
        {"frequency": Donation.Frequency.ONCE, "status": Donation.Status.PAID},
        {"frequency": Donation.Frequency.MONTHLY, "status": Donation.Status.CANCELLED},
        {"frequency": Donation.Frequency.MONTHLY, "status": Donation.Status.PENDING},
    ],
    ids=["one-off", "cancelled", "not started"],
)
def test_stripes_page_is_offered_only_for_a_running_monthly_gift(client, portal, donation):
    gift = GiftFactory(
        donation__stripe_customer_id="cus_donor_7",
        **{f"donation__{field}": value for field, value in donation.items()},
    )
    url = f"/donate/manage/{manage_token(gift.donation.reference)}/"
    assertNotContains(client.get(url), "Stripe's secure page")
    assert client.post(url).status_code == 400
    assert portal == []


def test_a_monthly_gift_being_cancelled_offers_no_card_change(client, portal):
    gift = GiftFactory(**RUNNING_MONTHLY, donation__cancel_requested_at=timezone.now())
    url = f"/donate/manage/{manage_token(gift.donation.reference)}/"
    assertNotContains(client.get(url), "Stripe's secure page")
    assert portal == []


@pytest.mark.parametrize("token", ["nonsense", "a" * 300, "%00", "x:y:z"])
def test_a_tampered_link_is_not_found(client, portal, token):
    GiftFactory(donation__stripe_customer_id="cus_donor_7")
    # A NUL byte is refused with 400 before any view runs; other junk is simply not found.
    assert client.get(f"/donate/manage/{token}/").status_code in (400, 404)
    assert client.post(f"/donate/manage/{token}/").status_code in (400, 404)
    assert portal == []


def test_stripe_unreachable_while_managing_is_a_plain_message(client, monkeypatch):
    def down(self, params=None, options=None):
        raise stripe.APIConnectionError("connection refused")

    monkeypatch.setattr(stripe.billing_portal.SessionService, "create", down)
    gift = GiftFactory(**RUNNING_MONTHLY)
    response = client.post(f"/donate/manage/{manage_token(gift.donation.reference)}/", follow=True)
    assert response.status_code == 200
    assert "cannot be reached right now" in response.content.decode()


def test_a_lost_link_is_sent_again_only_to_the_donors_address(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    gift = GiftFactory(donation__email="ada@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post("/donate/manage/", {"email": "ADA@example.org"}, follow=True)
        unknown = client.post("/donate/manage/", {"email": "eve@example.org"}, follow=True)
    message = "If we have gifts from that address, a message with their links is on its way."
    assert message in known.content.decode()
    assert message in unknown.content.decode()
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"]
    # The link in the mail opens that donation (the token is dated: recomputing it here
    # could land in the next second).
    token = re.search(r"/donate/manage/([^/\s]+)/", mail.body).group(1)
    assert reference_from_token(token) == str(gift.donation.reference)


def test_signed_in_donors_see_their_gifts_and_nobody_elses(client):
    user = UserFactory(email="grace@example.org")
    user.emailaddress_set.create(email="grace@example.org", verified=True, primary=True)
    GiftFactory(donation__email="grace@example.org", donation__amount=40)
    GiftFactory(donation__user=user, donation__email="other@example.org", donation__amount=15)
    GiftFactory(donation__email="someone@example.org", donation__amount=99)
    client.force_login(user)
    page = client.get("/donate/my-gifts/").content.decode()
    assert "€40" in page and "€15" in page
    assert "99.00" not in page


def test_my_gifts_asks_strangers_to_sign_in(client):
    response = client.get("/donate/my-gifts/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
