"""The donation form hands the donor to Stripe Checkout; nothing is saved before Stripe answers.

Stripe Checkout is not implemented by the local fake (localstripe), so the SDK's
``checkout.Session.create`` is replaced at the network edge.
"""

from decimal import Decimal
from types import SimpleNamespace

import pytest
import stripe
from pytest_django.asserts import assertContains

from donations.models import Donation
from donations.signing import manage_token
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db
CHECKOUT_URL = "https://checkout.stripe.com/c/pay/cs_test_gift"


@pytest.fixture
def sessions(monkeypatch):
    created = []

    def create_session(self, params=None, options=None):
        created.append(params)
        return SimpleNamespace(id=f"cs_test_gift_{len(created)}", url=CHECKOUT_URL)

    monkeypatch.setattr(stripe.checkout.SessionService, "create", create_session)
    return created


def give(client, **fields):
    data = {"frequency": "once", "preset": "25", "currency": "EUR", **fields}
    return client.post("/donate/", data)


def test_the_donate_page_is_linked_from_every_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/donate/"' in response.content
    page = client.get("/donate/")
    assert page.status_code == 200
    assert "Stripe's secure payment page" in page.content.decode()


def test_two_clicks_a_preset_amount_goes_to_checkout_as_one_payment(client, sessions):
    response = give(client)
    assert response.status_code == 302
    assert response["Location"] == CHECKOUT_URL
    [session] = sessions
    donation = Donation.objects.get()
    assert session["mode"] == "payment"
    assert session["metadata"] == {"donation": str(donation.reference)}
    assert session["payment_intent_data"] == {"metadata": {"donation": str(donation.reference)}}
    assert session["customer_creation"] == "always"
    [item] = session["line_items"]
    assert item["price_data"]["unit_amount"] == 2500
    assert item["price_data"]["currency"] == "eur"
    assert "recurring" not in item["price_data"]
    # Stripe sends the donor back to the thank-you page of this gift.
    token = manage_token(donation.reference)
    assert session["success_url"] == f"http://testserver/donate/thanks/?gift={token}"
    assert donation.amount == Decimal("25")
    assert donation.status == Donation.Status.PENDING
    assert donation.stripe_checkout_session_id == "cs_test_gift_1"
    assert donation.email == ""  # Stripe's page asks for it


def test_a_monthly_custom_gift_is_a_monthly_subscription(client, sessions):
    response = give(
        client,
        frequency="monthly",
        preset="custom",
        custom_amount="12.50",
        currency="USD",
        email="ada@example.org",
    )
    assert response.status_code == 302
    [session] = sessions
    assert session["mode"] == "subscription"
    assert session["customer_email"] == "ada@example.org"
    [item] = session["line_items"]
    assert item["price_data"] == {
        "currency": "usd",
        "unit_amount": 1250,
        "product_data": {"name": "Monthly gift to the MariaDB Foundation"},
        "recurring": {"interval": "month"},
    }
    donation = Donation.objects.get()
    assert session["subscription_data"] == {"metadata": {"donation": str(donation.reference)}}
    assert (donation.frequency, donation.currency, donation.amount) == (
        "monthly",
        "USD",
        Decimal("12.50"),
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"preset": "custom", "custom_amount": "1"}, "The smallest gift we can take is 5.00."),
        ({"preset": "custom", "custom_amount": ""}, "Type the amount you would like to give."),
        ({"preset": "custom", "custom_amount": "50000"}, "please write to us"),
        ({"preset": "7"}, "Select a valid choice"),
        ({"currency": "GBP"}, "Select a valid choice"),
        ({"show_on_wall": "on", "public_name": " "}, "Type the name to show"),
        (
            {"preset": "25", "custom_amount": "42"},
            "You picked 25 and also typed 42 in “Another amount”. Nothing was charged",
        ),
    ],
)
def test_bad_amounts_are_explained_and_nothing_is_saved(client, sessions, fields, message):
    response = give(client, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert sessions == []
    assert not Donation.objects.exists()


def test_a_typed_amount_equal_to_the_picked_preset_is_not_ambiguous(client, sessions):
    assert give(client, preset="25", custom_amount="25.00").status_code == 302
    assert sessions[0]["line_items"][0]["price_data"]["unit_amount"] == 2500


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        (
            {"frequency": "monthly", "preset": "custom", "custom_amount": "42"},
            "Give €42 every month",
        ),
        ({"preset": "custom", "custom_amount": "12.5", "currency": "USD"}, "Give $12.50 once"),
        ({"preset": "custom", "custom_amount": ""}, "Give"),
        # Amounts the form refuses are never named as if they would be charged.
        ({"preset": "custom", "custom_amount": "4.5"}, "Give"),
        ({"preset": "custom", "custom_amount": "-5"}, "Give"),
        ({"preset": "custom", "custom_amount": "12.345"}, "Give"),
        ({"preset": "custom", "custom_amount": "20000"}, "Give"),
        ({"preset": "custom", "custom_amount": "1e30"}, "Give"),
    ],
)
def test_a_form_sent_back_states_amount_currency_and_frequency(client, sessions, fields, label):
    # An unticked wall name makes the form come back, so the button can be read.
    page = give(client, show_on_wall="on", public_name="", **fields)
    assert sessions == []
    button = (
        f'<button class="button" type="submit" data-give-button aria-live="polite">{label}</button>'
    )
    assertContains(page, button, html=True, status_code=400)


def test_the_first_view_states_the_preset_amount(client):
    button = '<button class="button" type="submit" data-give-button aria-live="polite">Give €25 once</button>'
    assertContains(client.get("/donate/"), button, html=True)


def test_the_public_name_is_kept_only_when_the_donor_asks(client, sessions):
    give(client, public_name="Ada L.")
    give(client, public_name="Grace H.", show_on_wall="on")
    names = dict(Donation.objects.values_list("public_name", "show_on_wall"))
    assert names == {"": False, "Grace H.": True}


def test_stripe_unreachable_gives_a_plain_message_and_changes_nothing(client, monkeypatch):
    def down(self, params=None, options=None):
        raise stripe.APIConnectionError("Could not connect to Stripe (secret sk_test_fake)")

    monkeypatch.setattr(stripe.checkout.SessionService, "create", down)
    response = give(client)
    assert response.status_code == 503
    page = response.content.decode()
    assert "Card payments cannot be taken right now." in page
    assert "Nothing was charged" in page
    assert "APIConnectionError" not in page and "sk_test" not in page
    assert not Donation.objects.exists()


def test_a_signed_in_donor_is_remembered(client, sessions):
    user = UserFactory()
    client.force_login(user)
    give(client)
    assert Donation.objects.get().user == user
