"""What Stripe.js does in the payer's browser, for tests that have no browser: the calls
localstripe's Stripe.js (``<fake>/js.stripe.com/v3/``) makes to the fake when the pay
page's script calls ``confirmCardSetup`` and ``confirmCardPayment``. The card goes from
here to the fake only, as it goes from the browser to Stripe; the site never sees it.
The browser tests (tests/e2e/test_pay_paths_devstack_browser.py) walk the real script.
"""

import json
import urllib.error
import urllib.request

from django.conf import settings

from payments import gateway

PAYS = "4242424242424242"
ASKS_3DS = "4000002760003184"
DECLINED = "4000000000000002"


def _post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def confirm_card_setup(client_secret: str, number: str = PAYS, *, authenticate=True) -> dict:
    """``stripe.confirmCardSetup(client_secret, {payment_method: {card}})``: the
    SetupIntent as the fake answers it (``{"error": ...}`` for a refused card)."""
    base = settings.STRIPE_API_BASE
    setup_intent = client_secret.split("_secret_")[0]
    common = {"key": settings.STRIPE_PUBLISHABLE_KEY, "client_secret": client_secret}
    card = {"number": number, "exp_month": "12", "exp_year": "2034", "cvc": "123"}
    status, body = _post(
        f"{base}/v1/setup_intents/{setup_intent}/confirm",
        {**common, "use_stripe_sdk": True, "payment_method_data": {"type": "card", "card": card}},
    )
    if status == 200 and body.get("status") == "requires_action":
        then = "confirm" if authenticate else "cancel"
        status, body = _post(f"{base}/v1/setup_intents/{setup_intent}/{then}", common)
    if status != 200:
        return {"error": body.get("error", body)}
    if body.get("status") != "succeeded":  # as Stripe.js answers a refused prompt
        return {"error": {"message": "The latest attempt to set up the payment method has "
                          "failed because authentication failed."}}  # fmt: skip
    return body


def confirm_card_payment(client_secret: str, *, authenticate=True) -> dict:
    """``stripe.confirmCardPayment(client_secret)`` with the 3-D Secure prompt answered."""
    payment_intent = client_secret.split("_secret_")[0]
    _status, body = _post(
        f"{settings.STRIPE_API_BASE}/v1/payment_intents/{payment_intent}/_authenticate"
        f"?success={'true' if authenticate else 'false'}",
        {"key": settings.STRIPE_PUBLISHABLE_KEY, "client_secret": client_secret},
    )
    return body


def confirmed_card(metadata: dict, number: str = PAYS, email: str = "") -> gateway.ConfirmedCard:
    """A customer with a card confirmed in "the browser", as the pay pages make them."""
    customer = gateway.client().v1.customers.create({"email": email} if email else {}).id
    setup = gateway.create_setup_intent(customer, metadata, recurring=True)
    assert confirm_card_setup(setup["client_secret"], number)["status"] == "succeeded"
    return gateway.confirmed_card(setup["id"])
