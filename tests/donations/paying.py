"""The donate page's steps, as its script sends them (static/js/card-payment.js), with
the card confirmed as Stripe.js confirms it in the browser (tests/stripe_js.py)."""

import json

from tests.stripe_js import PAYS, confirm_card_payment, confirm_card_setup


def give(client, **fields):
    """The form sent as a plain form (no script, or the script found it has mistakes)."""
    data = {"frequency": "once", "preset": "25", "currency": "EUR", **fields}
    return client.post("/donate/", data)


def step(client, stage, fields, **extra):
    data = {"frequency": "once", "preset": "25", "currency": "EUR", **fields}
    response = client.post("/donate/card/", {**data, "stage": stage, **extra})
    return response.status_code, json.loads(response.content)


def give_by_card(client, number=PAYS, *, authenticate=True, **fields):
    """The page's script: setup, the card confirmed by Stripe.js, pay (and 3-D Secure,
    then check). Returns the last answer."""
    status, answer = step(client, "setup", fields)
    assert status == 200, answer
    setup = confirm_card_setup(answer["client_secret"], number, authenticate=authenticate)
    if "error" in setup:
        return 402, {"error": setup["error"]["message"]}
    status, answer = step(client, "pay", fields, setup_intent=setup["id"])
    if answer.get("status") == "requires_action":
        confirm_card_payment(answer["client_secret"], authenticate=authenticate)
        status, answer = step(client, "check", fields, setup_intent=setup["id"])
    return status, answer
