"""The sponsor journeys on the system `make run` starts (tests/e2e/devstack.py): nothing
here fakes Stripe's events or runs a task by hand. localstripe makes the payments and the
invoice and posts its signed events to /stripe/webhook/; the Celery worker delivers the
outbox; beat runs the periodic tasks; mails land in the stack's mail folder."""

import re
import urllib.parse
import urllib.request

import pytest

from core.demo import DEMO_STAFF_PASSWORD, DEMO_STAFF_USERNAME
from tests.artifacts import ARTIFACTS
from tests.e2e.cards import PAYS, type_card
from tests.e2e.devstack import body_of, wait_until

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Passphrase-42"
DOCS_IMG = ARTIFACTS / "docs-img"


def shot(page, name):
    """Screenshots at 1280 and 390 px in test-artifacts/docs-img/ (docs/img/ holds copies)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(DOCS_IMG / f"sponsors-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(DOCS_IMG / f"sponsors-{name}-390.png"), full_page=True)
    page.set_viewport_size({"width": width, "height": 900})


def sign_up(stack, page, address):
    page.goto(stack.url + "/accounts/signup/")
    page.fill("input[name=email]", address)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    mail = stack.wait_for_mail(address, "Confirm")
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", body_of(mail)).group(0)
    page.goto(link)
    page.click("main form button[type=submit]")


def apply_for_gold(page, name, billing, payment_method):
    page.get_by_role("link", name="Apply for Gold").click()
    page.fill("#id_org-name", name)
    page.fill("#id_org-website", "https://example.org")
    page.fill("#id_org-contact_name", "Ada Lovelace")
    page.fill("#id_org-contact_email", "ada@" + billing.split("@")[1])
    page.fill("#id_org-billing_name", f"{name} accounts")
    page.fill("#id_org-billing_email", billing)
    page.fill("#id_org-billing_address", "1 Example Street\n00100 Helsinki\nFinland")
    page.check(f"input[name=payment_method][value={payment_method}]")
    page.check("#id_accept_agreement")
    page.get_by_role("button", name="Accept and apply").click()


def staff_approve(stack, browser, organisation):
    staff = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    staff.goto(stack.url + "/admin/login/")
    staff.fill("#id_username", DEMO_STAFF_USERNAME)
    staff.fill("#id_password", DEMO_STAFF_PASSWORD)
    staff.click("input[type=submit]")
    staff.goto(stack.url + "/admin/sponsors/sponsorship/?status__exact=applied")
    row = staff.locator("#result_list tr", has_text=organisation)
    row.locator("input[name=_selected_action]").check()
    staff.select_option("select[name=action]", "approve")
    staff.click("button[name=index]")
    assert "1 sponsorship approved" in staff.locator(".messagelist").inner_text()
    return staff


def test_card_journey_paid_by_localstripe_webhook_approved_by_staff(devstack, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_up(devstack, page, "cto@acme.example")
    page.goto(devstack.url + "/sponsors/")
    shot(page, "programmes")
    apply_for_gold(page, "Acme Databases", "billing@acme.example", "card_annual")
    type_card(page, PAYS)  # into the fake Stripe.js's card field: the card goes to the fake only
    page.get_by_role("button", name=re.compile("^Pay")).click()
    page.wait_for_url("**/sponsors/dashboard/")
    assert "Thank you: Stripe accepted the payment" in page.inner_text(".messages")

    # localstripe's own invoice.payment_succeeded, signed and posted to the site.
    def paid():
        page.goto(devstack.url + "/sponsors/dashboard/")
        return re.search(r"Paid on \d+ \w+ \d{4}, thank you\.", page.inner_text("main"))

    wait_until(paid, what="the payment webhook from localstripe")
    assert "invoice.payment_succeeded" in devstack.output("stripe")
    shot(page, "dashboard-paid")
    page.get_by_role("link", name="Acme Databases").click()
    # The organisation page lists the receipt, named for the term the payment bought.
    receipt = page.get_by_role("link", name=re.compile(r"^Receipt RCT-\d{6} \(PDF\)$"))
    listed = page.locator("ul.documents li", has=receipt).inner_text()
    assert re.search(
        r"€50,000 paid on \d+ \w+ \d{4} for the term \d+ \w+ \d{4} – \d+ \w+ \d{4}", listed
    )
    with page.expect_download() as download:
        receipt.click()
    assert download.value.suggested_filename.startswith("RCT-")  # the receipt number
    with open(download.value.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"

    staff_approve(devstack, browser, "Acme Databases")
    page.goto(devstack.url + "/supporters/")
    gold = page.locator("section.tier-section", has_text="Gold sponsors")
    assert "Acme Databases" in gold.inner_text()
    shot(page, "supporters")
    page.goto(devstack.url + "/sponsors/dashboard/")
    assert page.locator(".badge-active").inner_text().lower() == "active"
    context.close()


def test_invoice_journey_worker_issues_the_invoice_in_localstripe(devstack, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_up(devstack, page, "cfo@globex.example")
    page.goto(devstack.url + "/sponsors/")
    apply_for_gold(page, "Globex Data", "billing@globex.example", "invoice")
    page.goto(devstack.url + "/sponsors/dashboard/")
    main = page.inner_text("main")
    assert "e-mailed" not in main and "Staff review the application" in main

    staff_approve(devstack, browser, "Globex Data")
    # The worker delivers the outbox item: an invoice in localstripe, a mail to billing.
    mail = devstack.wait_for_mail("billing@globex.example", "Invoice INV-", seconds=90)
    assert "PDF" in body_of(mail) or mail.is_multipart()
    # The billing contact opens it from the mail alone: a signed link, no account.
    link = re.search(r"https?://\S+/documents/[^/\s]+/", body_of(mail)).group(0)
    stranger = browser.new_context(viewport={"width": 1280, "height": 900})
    invoice_page = stranger.new_page()
    invoice_page.goto(devstack.url + urllib.parse.urlsplit(link).path)
    text = invoice_page.inner_text("main")
    assert "How to pay" in text and re.search(r"quoting the reference INV-\d{6}", text)
    assert "localstripe" in text  # the fake has no online payment page, and says so
    stranger.close()

    def invoiced():
        page.goto(devstack.url + "/sponsors/dashboard/")
        return page.get_by_role("link", name=re.compile("invoice", re.I)).count()

    wait_until(invoiced, what="the invoice on the dashboard")
    shot(page, "dashboard-invoice")
    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("invoice", re.I)).first.click()
    with open(download.value.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
    assert download.value.suggested_filename.startswith("INV-")  # the site's own number
    page.get_by_role("link", name="Globex Data").first.click()
    page.wait_for_url(re.compile(r"/sponsors/organisations/\d+/$"))  # not the dashboard still
    invoice_id = re.search(r"Stripe (in_\w+)", page.content())
    assert invoice_id
    with urllib.request.urlopen(
        urllib.request.Request(
            f"{devstack.stripe_url}/v1/invoices/{invoice_id.group(1)}",
            headers={"Authorization": "Bearer sk_test_local"},
        )
    ) as answer:
        assert b'"open"' in answer.read()
    context.close()


def test_a_withdrawn_application_comes_back_with_undo(devstack, browser):
    """The undo runs a JSON lookup PostgreSQL has (and SQLite, which `make run` once used,
    had not: it answered 500 there while the page offered the undo)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_up(devstack, page, "owner@initech.example")
    page.goto(devstack.url + "/sponsors/")
    apply_for_gold(page, "Initech Storage", "billing@initech.example", "invoice")
    ((organisation,),) = devstack.query(
        "select id from sponsors_organisation where name = 'Initech Storage'"
    )
    page.goto(f"{devstack.url}/sponsors/organisations/{organisation}/")
    page.get_by_role("link", name="Withdraw this application…").click()
    page.get_by_role("button", name="Withdraw the application").click()
    assert "was withdrawn" in page.inner_text("body")

    with page.expect_response(re.compile(r"/undo-cancel/$")) as undo:
        page.get_by_role("button", name="Undo the withdrawal").click()

    assert undo.value.status == 302
    assert "is back, exactly as it was" in page.inner_text("body")
    assert page.get_by_role("link", name="Withdraw this application…").count() == 1
    ((status,),) = devstack.query(
        "select status from sponsors_sponsorship s join sponsors_organisation o"
        " on o.id = s.organisation_id where o.name = 'Initech Storage'"
    )
    assert status == "applied"
    context.close()
