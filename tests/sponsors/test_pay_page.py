"""The sponsor's pay page: the card is typed into Stripe.js's card element and goes to
Stripe only; the page's script asks the site to start, pay and check, one step at a time
(sponsors.services.paying). Against localstripe, with what Stripe.js does in the browser
made by tests/stripe_js.py; the browser itself walks it in
tests/e2e/test_pay_paths_devstack_browser.py."""

import json

import pytest
from pytest_django.asserts import assertContains

from payments import gateway
from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import price_fields
from tests.stripe_js import ASKS_3DS, DECLINED, confirm_card_payment, confirm_card_setup

pytestmark = pytest.mark.django_db
S = Sponsorship.Status


def applied(client, method=Sponsorship.Payment.CARD_ANNUAL):
    organisation = OrganisationFactory()
    manager = organisation.managers.get()
    client.force_login(manager)
    return applications.apply(organisation, TierFactory(), method, manager)


def step(client, sponsorship, stage, **extra):
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/",
        {**price_fields(sponsorship), "stage": stage, **extra},
    )
    return response.status_code, json.loads(response.content)


def confirmed_setup(client, sponsorship, number="4242424242424242", **kwargs) -> str:
    status, answer = step(client, sponsorship, "setup")
    assert status == 200, answer
    assert confirm_card_setup(answer["client_secret"], number, **kwargs)["status"] == "succeeded"
    return answer["client_secret"].split("_secret_")[0]


def directives(policy: str) -> dict[str, set[str]]:
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {name: set(sources) for name, *sources in parts}


def test_the_page_draws_stripes_card_field_and_asks_for_no_card_itself(client, settings):
    settings.STRIPE_JS_URL = "https://js.stripe.com/v3/"
    sponsorship = applied(client, Sponsorship.Payment.CARD_ONCE)
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertContains(
        response,
        '<button class="button" type="submit" data-pay-button>Pay €50,000 for one year</button>',
        html=True,
    )
    assertContains(response, '<script src="https://js.stripe.com/v3/"></script>', html=True)
    assertContains(
        response, '<input type="hidden" name="amount" value="50000.00" id="id_amount">', html=True
    )
    # The page's own form has no field for the card: Stripe.js draws it, outside the form's data.
    form = response.content.decode().split("data-card-payment")[1].split("</form>")[0]
    assert form.count("<input") == form.count('<input type="hidden"') == 4  # CSRF and price
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' https://js.stripe.com https://*.js.stripe.com" in policy
    assert (
        "frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com" in policy
    )
    assert "connect-src 'self' https://api.stripe.com" in policy
    # Other pages do not let Stripe in.
    assert "stripe" not in client.get("/sponsors/dashboard/")["Content-Security-Policy"]


def test_under_make_run_the_page_loads_the_fakes_stripe_js_and_lets_in_only_its_origin(
    client, settings
):
    settings.STRIPE_JS_URL = "http://127.0.0.1:8420/js.stripe.com/v3/"
    sponsorship = applied(client)
    response = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/")
    assertContains(
        response, '<script src="http://127.0.0.1:8420/js.stripe.com/v3/"></script>', html=True
    )
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == policy["connect-src"] == {"'self'", "http://127.0.0.1:8420"}
    assert "frame-src" not in policy


@pytest.mark.parametrize("method", ["card_annual", "card_once"])
def test_a_card_confirmed_in_the_browser_pays_once_however_often_the_step_is_sent(
    client, fake_stripe, method
):
    sponsorship = applied(client, method)
    setup_intent = confirmed_setup(client, sponsorship)
    first = step(client, sponsorship, "pay", setup_intent=setup_intent)
    assert first == (200, {"status": "succeeded", "next": "/sponsors/dashboard/"})
    sponsorship.refresh_from_db()
    made = sponsorship.stripe_subscription_id or sponsorship.stripe_payment_intent_id
    assert made.startswith("sub_" if method == "card_annual" else "pi_")
    # The same step again (a double submit), then a second card on a second page:
    # no second payment, the first one is answered.
    assert step(client, sponsorship, "pay", setup_intent=setup_intent)[0] == 200
    assert step(client, sponsorship, "setup")[0] == 200
    sponsorship.refresh_from_db()
    assert (sponsorship.stripe_subscription_id or sponsorship.stripe_payment_intent_id) == made
    stripe = gateway.client().v1
    customer = sponsorship.organisation.stripe_customer_id
    if method == "card_annual":
        assert len(stripe.subscriptions.list({"customer": customer}).data) == 1
    else:
        intent = stripe.payment_intents.retrieve(made)
        assert (intent.status, intent.amount, intent.currency) == ("succeeded", 5000000, "eur")
    messages = client.get("/sponsors/dashboard/").content.decode()
    assert "Thank you: Stripe accepted the payment of €50,000" in messages


def test_a_declined_card_is_refused_by_stripe_before_the_site_is_asked_to_pay(client, fake_stripe):
    sponsorship = applied(client)
    _status, answer = step(client, sponsorship, "setup")
    refused = confirm_card_setup(answer["client_secret"], DECLINED)
    assert refused["error"]["message"] == "Your card was declined."
    # The script stops there; a pay step naming that SetupIntent anyway takes nothing.
    setup_intent = answer["client_secret"].split("_secret_")[0]
    status, answer = step(client, sponsorship, "pay", setup_intent=setup_intent)
    assert status == 409 and "nothing was taken" in answer["error"]
    sponsorship.refresh_from_db()
    assert sponsorship.nothing_paid and sponsorship.status == S.APPLIED


@pytest.mark.parametrize("method", ["card_annual", "card_once"])
@pytest.mark.parametrize("authenticated", [True, False], ids=["confirmed", "refused"])
def test_3d_secure_pays_when_confirmed_and_takes_nothing_when_refused(
    client, fake_stripe, method, authenticated
):
    sponsorship = applied(client, method)
    setup_intent = confirmed_setup(client, sponsorship, ASKS_3DS)
    status, answer = step(client, sponsorship, "pay", setup_intent=setup_intent)
    assert (status, answer["status"]) == (200, "requires_action")
    confirm_card_payment(answer["client_secret"], authenticate=authenticated)
    status, answer = step(client, sponsorship, "check", setup_intent=setup_intent)
    sponsorship.refresh_from_db()
    if authenticated:
        assert answer == {"status": "succeeded", "next": "/sponsors/dashboard/"}
        assert not sponsorship.nothing_paid
        return
    assert status == 402
    assert answer["error"] == (
        "The provided PaymentMethod has failed authentication. Nothing was taken."
    )
    # Let go: nothing paid, nothing running at Stripe, and the sponsor may pay again.
    assert sponsorship.nothing_paid and sponsorship.status == S.APPLIED
    customer = sponsorship.organisation.stripe_customer_id
    assert gateway.client().v1.subscriptions.list({"customer": customer}).data == []
    again = confirmed_setup(client, sponsorship)
    assert step(client, sponsorship, "pay", setup_intent=again)[1]["status"] == "succeeded"


@pytest.mark.parametrize("method", ["card_annual", "card_once"])
def test_a_payment_left_waiting_for_3d_secure_gives_way_to_the_next_card(
    client, fake_stripe, method, django_capture_on_commit_callbacks
):
    """The sponsor closed the tab at the 3-D Secure prompt, then came back."""
    sponsorship = applied(client, method)
    waiting = confirmed_setup(client, sponsorship, ASKS_3DS)
    first = step(client, sponsorship, "pay", setup_intent=waiting)[1]
    assert first["status"] == "requires_action"
    # The same step again is the same payment, still waiting.
    assert step(client, sponsorship, "pay", setup_intent=waiting)[1] == first
    # Another card on the page later: the waiting payment is cancelled, the new one made.
    again = confirmed_setup(client, sponsorship)
    # (a subscription left waiting is cancelled by the outbox once the step has committed)
    with django_capture_on_commit_callbacks(execute=True):
        assert step(client, sponsorship, "pay", setup_intent=again)[1]["status"] == "succeeded"
    stripe = gateway.client().v1
    if method == "card_once":
        left = first["client_secret"].split("_secret_")[0]
        assert stripe.payment_intents.retrieve(left).status == "canceled"
    else:  # cancelling the subscription voids its invoice (the fake leaves its payment be)
        sponsorship.organisation.refresh_from_db()
        customer = sponsorship.organisation.stripe_customer_id
        running = stripe.subscriptions.list({"customer": customer}).data
        assert [s.status for s in running] == ["active"]


def test_a_setup_intent_made_for_another_sponsorship_pays_nothing(client, fake_stripe):
    sponsorship = applied(client)
    other = applications.apply(
        sponsorship.organisation, TierFactory(), Sponsorship.Payment.CARD_ONCE, None
    )
    setup_intent = confirmed_setup(client, other)
    status, answer = step(client, sponsorship, "pay", setup_intent=setup_intent)
    assert status == 409 and "another payment" in answer["error"]
    status, answer = step(client, sponsorship, "pay", setup_intent="seti_made_up")
    assert status == 409
    sponsorship.refresh_from_db()
    assert sponsorship.nothing_paid


@pytest.mark.parametrize(
    "sent",
    [
        {"amount": ""},
        {"amount": "25000.00"},
        {"currency": "USD"},
        {"payment_method": "card_once"},
    ],
)
def test_a_step_not_stating_the_current_price_is_refused(client, settings, sent):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # nothing may be asked of Stripe
    sponsorship = applied(client)
    status, answer = step(client, sponsorship, "setup", **sent)
    assert status == 409
    assert answer["error"].startswith(
        "This form did not say the price of this sponsorship as it stands now "
        "(€50,000 every year). Nothing was charged"
    )
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.APPLIED


def test_someone_elses_sponsorship_cannot_be_paid_for(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    sponsorship = applied(client)
    client.force_login(OrganisationFactory().managers.get())
    assert client.get(f"/sponsors/sponsorships/{sponsorship.pk}/pay/").status_code == 404
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/",
        {**price_fields(sponsorship), "stage": "setup"},
    )
    assert response.status_code == 404


def test_a_paid_or_invoiced_sponsorship_sends_the_script_to_the_dashboard(client, settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    sponsorship = applied(client, Sponsorship.Payment.INVOICE)
    assert step(client, sponsorship, "setup") == (200, {"next": "/sponsors/dashboard/"})
    assert "paid by invoice" in client.get("/sponsors/dashboard/").content.decode()
