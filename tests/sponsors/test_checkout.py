"""Live mode: the card is typed on Stripe Checkout's hosted page, never on this site.

Stripe Checkout is not implemented by the local fake, so the Stripe network is
replaced at its edge: the SDK's ``checkout.Session.create`` and the gateway's customer
and plan calls. The webhooks are signed payloads shaped like Stripe's events.
"""

from types import SimpleNamespace

import pytest
import stripe
from pytest_django.asserts import assertContains, assertNotContains

from sponsors import stripe_gateway
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event, price_fields

pytestmark = pytest.mark.django_db
S = Sponsorship.Status
CHECKOUT_URL = "https://checkout.stripe.com/c/pay/cs_test_a1"


@pytest.fixture
def live_stripe(settings, monkeypatch):
    settings.STRIPE_API_BASE = ""
    sessions = []

    def create_session(self, params=None, options=None):
        sessions.append(params)
        return SimpleNamespace(id="cs_test_a1", url=CHECKOUT_URL)

    monkeypatch.setattr(stripe.checkout.SessionService, "create", create_session)
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_live")
    monkeypatch.setattr(stripe_gateway, "create_plan", lambda tier: "plan_gold")
    return sessions


def applied(method, client):
    organisation = OrganisationFactory()
    manager = organisation.managers.get()
    client.force_login(manager)
    return applications.apply(organisation, TierFactory(), method, manager)


def test_the_pay_page_offers_stripes_page_and_asks_for_no_card(client, live_stripe):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertContains(
        response,
        '<button class="button" type="submit">Continue to pay €50,000 every year</button>',
        html=True,
    )
    assertNotContains(response, "Card number")
    assertNotContains(response, 'name="number"')
    assertContains(response, "renews the sponsorship every year")


def test_the_test_card_form_never_shows_under_the_production_profile(client, live_stripe, settings):
    # check --deploy refuses STRIPE_API_BASE in production; the view refuses it too.
    settings.PRODUCTION = True
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    sponsorship = applied(Sponsorship.Payment.CARD_ONCE, client)
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertNotContains(response, 'name="number"')
    assertContains(
        response,
        '<button class="button" type="submit">Continue to pay €50,000 for one year</button>',
        html=True,
    )
    card = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123"}
    shown = {"amount": "50000.00", "currency": "EUR", "payment_method": "card_once"}
    response = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay/", card | shown)
    assert (response.status_code, response["Location"]) == (302, CHECKOUT_URL)


def test_an_annual_sponsorship_goes_to_checkout_as_a_subscription(client, live_stripe):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/", price_fields(sponsorship)
    )
    assert response.status_code == 302
    assert response["Location"] == CHECKOUT_URL
    [session] = live_stripe
    assert session["mode"] == "subscription"
    assert session["customer"] == "cus_live"
    assert session["line_items"] == [{"price": "plan_gold", "quantity": 1}]
    assert session["subscription_data"] == {"metadata": {"sponsorship": str(sponsorship.pk)}}
    assert session["success_url"] == "http://testserver/sponsors/dashboard/?paid=1"
    assert session["cancel_url"] == f"http://testserver/sponsors/sponsorships/{sponsorship.pk}/pay/"


def test_a_one_year_sponsorship_goes_to_checkout_as_one_payment(client, live_stripe):
    sponsorship = applied(Sponsorship.Payment.CARD_ONCE, client)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay/", price_fields(sponsorship))
    [session] = live_stripe
    assert session["mode"] == "payment"
    [item] = session["line_items"]
    assert item["price_data"]["unit_amount"] == 5000000
    assert item["price_data"]["currency"] == "eur"
    assert session["payment_intent_data"] == {"metadata": {"sponsorship": str(sponsorship.pk)}}


def test_someone_elses_sponsorship_cannot_be_paid_for(client, live_stripe):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    client.force_login(UserFactory())
    assert (
        client.post(
            f"/sponsors/sponsorships/{sponsorship.pk}/pay/", price_fields(sponsorship)
        ).status_code
        == 404
    )
    assert live_stripe == []


def test_stripe_refusing_the_session_gets_a_clear_error(client, live_stripe, monkeypatch):
    def refuse(self, params=None, options=None):
        raise stripe.InvalidRequestError("No such price: 'plan_gold'", param="line_items")

    monkeypatch.setattr(stripe.checkout.SessionService, "create", refuse)
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/", price_fields(sponsorship)
    )
    assert response.status_code == 400
    assert "The payment could not be started" in response.content.decode()
    assert Sponsorship.objects.get().status == S.APPLIED


def checkout_journey(sponsorship):
    """What Stripe sends after an annual Checkout payment (API version 2025 shapes)."""
    pk = str(sponsorship.pk)
    return [
        event(
            "evt_c1",
            "checkout.session.completed",
            {
                "id": "cs_test_a1",
                "object": "checkout.session",
                "mode": "subscription",
                "payment_status": "paid",
                "subscription": "sub_live1",
                "client_reference_id": pk,
                "metadata": {"sponsorship": pk},
            },
        ),
        event(
            "evt_c2",
            "invoice.paid",
            {
                "id": "in_live1",
                "object": "invoice",
                "amount_paid": 5000000,
                "currency": "eur",
                "created": 1767225600,
                "hosted_invoice_url": "https://invoice.stripe.com/i/in_live1",
                "metadata": {},
                "parent": {
                    "type": "subscription_details",
                    "subscription_details": {
                        "subscription": "sub_live1",
                        "metadata": {"sponsorship": pk},
                    },
                },
            },
        ),
    ]


@pytest.mark.parametrize("order", ["as sent", "reversed"])
def test_checkout_webhooks_in_either_order_activate_the_sponsorship(post_event, client, order):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    events = checkout_journey(sponsorship)
    for delivered in events if order == "as sent" else reversed(events):
        assert post_event(delivered).content.decode().strip() == "processed"
    lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE
    assert sponsorship.stripe_subscription_id == "sub_live1"
    [payment] = sponsorship.payments.all()
    assert payment.receipt_url == "https://invoice.stripe.com/i/in_live1"


def test_a_subscription_deleted_before_checkout_completed_still_finds_its_sponsorship(
    post_event, client
):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    post_event(
        event(
            "evt_d1",
            "customer.subscription.deleted",
            {
                "id": "sub_live2",
                "object": "subscription",
                "metadata": {"sponsorship": str(sponsorship.pk)},
            },
        )
    )
    sponsorship.refresh_from_db()
    assert (sponsorship.status, sponsorship.stripe_subscription_id) == (S.CANCELLED, "sub_live2")


def test_test_mode_card_form_names_the_missing_fields(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # test mode; nothing is sent
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/",
        {"number": "4242"} | price_fields(sponsorship),
    )
    assert response.status_code == 400
    assert response.content.decode().count("This field is required.") == 3
    assert Sponsorship.objects.get().status == S.APPLIED


def test_a_one_off_invoice_without_subscription_details_is_recorded(post_event, client):
    # Invoices of API versions before 2025 carry "subscription_details": null when they
    # belong to no subscription.
    sponsorship = applied(Sponsorship.Payment.INVOICE, client)
    response = post_event(
        event(
            "evt_o1",
            "invoice.paid",
            {
                "id": "in_once1",
                "object": "invoice",
                "amount_paid": 5000000,
                "currency": "eur",
                "created": 1767225600,
                "subscription": None,
                "subscription_details": None,
                "metadata": {"sponsorship": str(sponsorship.pk)},
            },
        )
    )
    assert response.content.decode().strip() == "processed"
    assert sponsorship.payments.get().stripe_id == "in_once1"


@pytest.mark.parametrize(
    "sent",
    [
        {},
        {"amount": "25000.00", "currency": "EUR", "payment_method": "card_annual"},
        {"amount": "50000.00", "currency": "USD", "payment_method": "card_annual"},
        {"amount": "50000.00", "currency": "EUR", "payment_method": "card_once"},
    ],
)
def test_a_payment_form_not_stating_the_current_price_is_refused(client, live_stripe, sent):
    sponsorship = applied(Sponsorship.Payment.CARD_ANNUAL, client)
    response = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay/", sent)
    assertContains(
        response,
        "This form did not say the price of this sponsorship as it stands now "
        "(€50,000 every year). Nothing was charged",
        status_code=400,
    )
    assert live_stripe == []
    assert Sponsorship.objects.get().status == S.APPLIED


def test_the_test_mode_button_states_the_price_and_its_period(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    sponsorship = applied(Sponsorship.Payment.CARD_ONCE, client)
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertContains(
        response,
        '<button class="button" type="submit">Pay €50,000 for one year</button>',
        html=True,
    )
    assertContains(
        response, '<input type="hidden" name="amount" value="50000.00" id="id_amount">', html=True
    )
