"""The thank-you page says only what Stripe has reported; a paid gift has a PDF receipt;
a monthly gift can be cancelled from its manage page, once and only when it runs."""

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from donations.models import Donation
from donations.signing import manage_token
from outbox.models import OutboxItem
from tests.donations.factories import DonationFactory, GiftFactory

pytestmark = pytest.mark.django_db
TAKEN = "Stripe has taken your payment"


def thanks(client, donation=None, token=None):
    token = token if token is not None else manage_token(donation.reference)
    return client.get("/donate/thanks/", {"gift": token})


def test_the_thank_you_page_opened_without_paying_says_nothing_was_taken(client):
    page = client.get("/donate/thanks/")
    assert page.status_code == 200
    assertContains(page, "<h1>No gift to confirm</h1>", html=True)
    assertContains(page, "nothing was taken")
    assertNotContains(page, TAKEN)
    assertNotContains(page, "Thank you for your gift")
    assertNotContains(page, "receipt is on its way")


def test_a_tampered_gift_in_the_address_is_no_gift(client):
    DonationFactory()
    page = thanks(client, token="nonsense")
    assertContains(page, "<h1>No gift to confirm</h1>", html=True)


def test_before_stripes_event_the_gift_is_processing_and_no_thanks_is_said(client):
    donation = DonationFactory(amount=37.5)
    page = thanks(client, donation)
    assertContains(page, "<h1>Your payment is processing</h1>", html=True)
    assertContains(page, "Stripe is processing the payment of €37.50 and has not confirmed it yet")
    assertNotContains(page, "Thank you")
    assertNotContains(page, "Download the receipt")
    assertNotContains(page, "receipt is on its way")


def test_once_stripes_event_came_the_payment_is_confirmed_with_its_receipt(client):
    gift = GiftFactory(donation__email="ada@example.org")
    token = manage_token(gift.donation.reference)
    page = thanks(client, gift.donation)
    assertContains(page, "<h1>Thank you for your gift</h1>", html=True)
    assertContains(page, "Stripe has confirmed your payment of €25 on 10 March 2026.")
    assertContains(page, "A receipt is on its way to ada@example.org")
    assertContains(
        page,
        f'<a class="button" href="/donate/manage/{token}/receipt/{gift.pk}/">'
        "Download the receipt (PDF)</a>",
        html=True,
    )


def test_the_confirmed_page_is_never_kept_by_a_shared_cache(client):
    """It carries the donor's manage link, and says "processing" until Stripe reports."""
    donation = DonationFactory(amount=37.5)
    assertContains(thanks(client, donation), "Your payment is processing")
    GiftFactory(donation=donation)
    page = thanks(client, donation)
    assertContains(page, "<h1>Thank you for your gift</h1>", html=True)
    assert "no-store" in page["Cache-Control"]
    assert "X-Page-Cache" not in page


def test_a_payment_stripe_reported_failed_is_said_to_be_not_taken(client):
    donation = DonationFactory(status=Donation.Status.PAST_DUE)
    page = thanks(client, donation)
    assertContains(page, "<h1>The payment was not taken</h1>", html=True)
    assertNotContains(page, "Thank you for your gift")


def test_the_receipt_pdf_of_a_gift(client):
    gift = GiftFactory(donation__email="ada@example.org")
    base = f"/donate/manage/{manage_token(gift.donation.reference)}/receipt/"
    response = client.get(f"{base}{gift.pk}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="RCT-000001.pdf"'
    assert response.content.startswith(b"%PDF-")
    # A link opens the receipts of its own gift only.
    theirs = GiftFactory()
    assert client.get(f"{base}{theirs.pk}/").status_code == 404
    assert client.get(f"/donate/manage/nonsense/receipt/{gift.pk}/").status_code == 404


def test_the_manage_page_lists_each_payments_receipt(client):
    gift = GiftFactory()
    token = manage_token(gift.donation.reference)
    page = client.get(f"/donate/manage/{token}/")
    assertContains(page, f'href="/donate/manage/{token}/receipt/{gift.pk}/"')


def monthly(**fields):
    return GiftFactory(
        donation__frequency=Donation.Frequency.MONTHLY,
        donation__status=Donation.Status.ACTIVE,
        donation__stripe_subscription_id="sub_donor_1",
        donation__stripe_customer_id="cus_donor_1",
        **fields,
    ).donation


def cancel(client, donation, **data):
    url = f"/donate/manage/{manage_token(donation.reference)}/"
    return client.post(url, {"action": "cancel", **data})


def test_cancelling_unconfirmed_changes_nothing(client):
    donation = monthly()
    response = cancel(client, donation)
    assert response.status_code == 400
    assertContains(response, "Tick the box to confirm", status_code=400)
    assert not OutboxItem.objects.exists()
    donation.refresh_from_db()
    assert donation.cancel_requested_at is None


def test_a_one_off_gift_has_nothing_to_cancel(client):
    donation = GiftFactory().donation
    response = cancel(client, donation, confirm="yes")
    assertContains(response, "A one-off gift has nothing to cancel.", status_code=400)
    assert not OutboxItem.objects.exists()


def test_cancelling_twice_asks_stripe_once(client, django_capture_on_commit_callbacks):
    donation = monthly()
    with django_capture_on_commit_callbacks():  # the outbox item stays pending
        assert cancel(client, donation, confirm="yes").status_code == 302
    page = client.get(f"/donate/manage/{manage_token(donation.reference)}/")
    assertContains(page, "You cancelled this monthly gift on")
    assertNotContains(page, "Cancel the monthly gift</button>")
    with django_capture_on_commit_callbacks():
        cancel(client, donation, confirm="yes")
    [item] = OutboxItem.objects.all()
    assert item.payload == {"subscription_id": "sub_donor_1"}
    donation.refresh_from_db()
    assert donation.status == Donation.Status.ACTIVE  # until Stripe's event says otherwise
