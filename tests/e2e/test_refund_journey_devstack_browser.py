"""A refund made at Stripe, on the system `make run` starts (issue 46, item 5): a sponsor
applies to pay by invoice, staff approve, the worker issues the invoice at localstripe,
the invoice is paid there, and then part of the payment is refunded there
(``POST /v1/refunds``). localstripe posts its signed ``charge.refunded`` to the site; the
sponsor's dashboard then says what was refunded and the public funding figures (the
yearly CSV /funding/ offers) are lower by exactly that."""

import csv
import io
import json
import re
import urllib.parse
import urllib.request
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.e2e.devstack import wait_until
from tests.e2e.test_sponsor_journeys_devstack_browser import apply_for_gold, sign_up, staff_approve

pytestmark = pytest.mark.browser
REFUND = 1_000_000  # EUR 10,000.00, in cents


def at_stripe(stack, path, params=None):
    """A call to the stack's localstripe, as the site's server makes them."""
    request = urllib.request.Request(
        f"{stack.stripe_url}{path}",
        data=urllib.parse.urlencode(params).encode() if params is not None else None,
        headers={"Authorization": "Bearer sk_test_local"},
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def sponsors_income(stack, year) -> Decimal:
    """The year's EUR income of the sponsors programme, as /funding-years.csv gives it."""
    with urllib.request.urlopen(f"{stack.url}/funding-years.csv?year={year}", timeout=20) as got:
        rows = csv.DictReader(io.StringIO(got.read().decode()))
        for row in rows:
            if (row["currency"], row["flow"], row["category"]) == ("EUR", "income", "Sponsors"):
                return Decimal(row["amount"] or "0")
    return Decimal(0)


def sponsor_lines(stack, year) -> list[tuple[str, Decimal]]:
    """The year's sponsor lines of /funding/'s table, as a visitor reads them: (what, amount)."""
    with urllib.request.urlopen(f"{stack.url}/funding/?year={year}", timeout=20) as got:
        page = got.read().decode()
    table = page.split('class="funding-table transactions"', 1)[1].split("</table>", 1)[0]
    lines = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        if len(cells) == 4 and cells[2] == "Sponsors":
            amount = Decimal(re.sub(r"[^\d.]", "", cells[3]))
            lines.append((cells[1], -amount if cells[3].startswith("−") else amount))
    return lines


def test_a_refund_made_at_stripe_lowers_the_dashboard_and_the_funding_figures(devstack, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_up(devstack, page, "cfo@initech.example")
    page.goto(devstack.url + "/sponsors/")
    apply_for_gold(page, "Initech Data", "billing@initech.example", "invoice")
    staff_approve(devstack, browser, "Initech Data")

    # The worker issues the invoice at localstripe; it is paid there by card.
    def issued():
        for found in at_stripe(devstack, "/v1/invoices?limit=100")["data"]:
            if found["status"] == "open" and found.get("collection_method") == "send_invoice":
                customer = at_stripe(devstack, f"/v1/customers/{found['customer']}")
                if customer["email"] == "billing@initech.example":
                    return found
        return None

    invoice = wait_until(issued, seconds=90, what="the invoice at localstripe")
    year = timezone.localdate().year
    card = {"type": "card", "card[number]": "4242424242424242", "card[exp_month]": "12",
            "card[exp_year]": "2034", "card[cvc]": "123"}  # fmt: skip
    method = at_stripe(devstack, "/v1/payment_methods", card)["id"]
    at_stripe(devstack, f"/v1/payment_methods/{method}/attach", {"customer": invoice["customer"]})
    at_stripe(
        devstack,
        f"/v1/customers/{invoice['customer']}",
        {"invoice_settings[default_payment_method]": method},
    )
    paid = at_stripe(devstack, f"/v1/invoices/{invoice['id']}/pay", {})

    def dashboard_says(text):
        page.goto(devstack.url + "/sponsors/dashboard/")
        return text in page.inner_text("main")

    wait_until(lambda: dashboard_says("Receipt RCT-"), what="the payment from localstripe's event")
    price = Decimal(invoice["total"]) / 100
    own = [
        amount for what, amount in sponsor_lines(devstack, year) if what.endswith(": Initech Data")
    ]
    assert own == [price]

    intent = at_stripe(devstack, f"/v1/payment_intents/{paid['payment_intent']}")
    charge = (
        intent["latest_charge"]["id"]
        if isinstance(intent["latest_charge"], dict)
        else intent["latest_charge"]
    )
    at_stripe(devstack, "/v1/refunds", {"charge": charge, "amount": REFUND})
    wait_until(lambda: dashboard_says("refunded"), what="the refund from localstripe's event")
    assert re.search(r"\(€10,000 refunded\)", page.inner_text("main"))
    assert "charge.refunded" in devstack.output("stripe")
    # The payment and its refund, each on a line of its own; the other journeys on the
    # shared stack pay sponsorships meanwhile, so the CSV's total is compared with the
    # page's lines read at the same moment.
    own = [
        amount for what, amount in sponsor_lines(devstack, year) if what.endswith(": Initech Data")
    ]
    assert sorted(own) == [-Decimal(REFUND) / 100, price]

    def csv_matches_the_lines():
        lines = sum(amount for _what, amount in sponsor_lines(devstack, year))
        return sponsors_income(devstack, year) == lines

    wait_until(
        csv_matches_the_lines, what="/funding-years.csv to count the refund as the page does"
    )
    context.close()
