"""Paying in a browser on the system `make run` starts: the card typed into the card field
the fake's Stripe.js draws (localstripe's ``/js.stripe.com/v3/``: plain inputs, named by
their placeholders), its 3-D Secure prompt answered, and what the browser sent to the site
recorded, to show that no card number is among it."""

import json
import urllib.parse
import urllib.request

PAYS = "4242 4242 4242 4242"
ASKS_3DS = "4000 0027 6000 3184"
DECLINED = "4000 0000 0000 0002"
NUMBERS = (PAYS, ASKS_3DS, DECLINED)


def type_card(page, number: str):
    field = page.locator("[data-card-element]")
    for placeholder, value in (
        ("number", number.replace(" ", "")),
        ("exp_month", "12"),
        ("exp_year", "34"),
        ("cvc", "123"),
        ("postal_code", "00100"),
    ):
        field.locator(f"input[placeholder={placeholder}]").fill(value)


def answer_3ds(page, *answers: str):
    """Each prompt in turn: "Complete" or "Fail" (authentication)."""
    for answer in answers:
        page.get_by_role("button", name=f"{answer} authentication").click()


def card_error(page):
    return page.locator("[data-card-error]")


class SentToSite:
    """Every request the browser sends to the site's origin (address and body), and what
    the browser refused under the site's Content-Security-Policy."""

    def __init__(self, context, site_url: str):
        self.site_url = site_url
        self.requests: list[tuple[str, str]] = []
        self.refused: list[str] = []
        context.on("request", self._record)
        context.on("console", self._console)

    def _console(self, message):
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            self.refused.append(message.text)

    def _record(self, request):
        if request.url.startswith(self.site_url):
            body = request.post_data_buffer or b""
            self.requests.append((request.url, body.decode("utf-8", "replace")))

    def assert_no_card_number(self):
        assert self.refused == []
        assert any("/card/" in url for url, _body in self.requests), "no payment step was sent"
        for url, body in self.requests:
            text = urllib.parse.unquote_plus(url + " " + body)
            for number in NUMBERS:
                for form in (number, number.replace(" ", "")):
                    assert form not in text, (url, body[:300])


def stripe_list(stack, kind: str) -> list[dict]:
    """Every object of a kind (``payment_intents``, ...) the stack's Stripe fake holds."""
    found, after = [], ""
    while True:
        query = "limit=100" + (f"&starting_after={after}" if after else "")
        request = urllib.request.Request(
            f"{stack.stripe_url}/v1/{kind}?{query}",
            headers={"Authorization": "Bearer sk_test_local"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            page = json.loads(answer.read())
        found += page["data"]
        if not page.get("has_more") or not page["data"]:
            return found
        after = page["data"][-1]["id"]


def payments_of(stack, amount_minor: int) -> list[dict]:
    """The succeeded PaymentIntents of an amount (a test gives each payment its own)."""
    return [
        intent
        for intent in stripe_list(stack, "payment_intents")
        if intent["amount"] == amount_minor and intent["status"] == "succeeded"
    ]
