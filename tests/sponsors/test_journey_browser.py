"""Sign up, apply for Gold, pay by card against the Stripe fake, webhook, staff approval,
and the organisation appears on /supporters/ under Gold."""

import re
import urllib.request

import pytest
from django.core import mail

from payments import gateway
from sponsors import demo
from sponsors.models import Sponsorship
from tests.artifacts import ARTIFACTS
from tests.e2e.cards import PAYS, type_card
from tests.sponsors.helpers import event, signed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sponsor_journey(live_server, browser, fake_stripe, django_user_model, settings):
    settings.STRIPE_JS_URL = f"{fake_stripe}/js.stripe.com/v3/"  # the fake's card field
    demo.load(log=lambda m: None)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(live_server.url + "/accounts/signup/")
    page.fill("input[name=email]", "cto@acme.example")
    page.fill("input[name=password1]", "a-long-Passphrase-42")
    page.fill("input[name=password2]", "a-long-Passphrase-42")
    page.click("main form button[type=submit]")
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[-1].body).group(0)
    page.goto(live_server.url + "/accounts/" + link.split("/accounts/", 1)[1])
    page.click("main form button[type=submit]")  # confirm the address

    page.goto(live_server.url + "/sponsors/")
    page.get_by_role("link", name="Apply for Gold").click()
    page.fill("#id_org-name", "Acme Databases")
    page.fill("#id_org-website", "https://acme.example")
    page.fill("#id_org-contact_name", "Ada Lovelace")
    page.fill("#id_org-contact_email", "ada@acme.example")
    page.fill("#id_org-billing_name", "Acme accounts")
    page.fill("#id_org-billing_email", "billing@acme.example")
    page.fill("#id_org-billing_address", "1 Example Street\n00100 Helsinki\nFinland")
    # The agreement on the page follows the payment chosen.
    fee = page.locator(".agreement-text:visible")
    page.check("input[name=payment_method][value=invoice]")
    assert "paid against an invoice due in 30 days" in fee.inner_text()
    page.check("input[name=payment_method][value=card_annual]")
    assert "paid by card, renewed every year until cancelled" in fee.inner_text()
    page.check("#id_accept_agreement")
    page.get_by_role("button", name="Accept and apply").click()
    type_card(page, PAYS)
    page.get_by_role("button", name=re.compile("^Pay")).click()
    page.wait_for_url("**/sponsors/dashboard/")
    assert "Thank you: Stripe accepted the payment" in page.inner_text(".messages")

    # Stripe tells us: the subscription's first invoice, as the fake holds it, in a signed event.
    sponsorship = Sponsorship.objects.get(organisation__name="Acme Databases")
    stripe = gateway.client().v1
    subscription = stripe.subscriptions.retrieve(sponsorship.stripe_subscription_id)
    invoice = stripe.invoices.retrieve(subscription.latest_invoice).to_dict()
    invoice["subscription"] = subscription.id
    payload, header = signed(event("evt_journey_1", "invoice.paid", invoice))
    request = urllib.request.Request(
        live_server.url + "/stripe/webhook/",
        data=payload.encode(),
        headers={"Stripe-Signature": header, "Content-Type": "application/json"},
    )
    assert urllib.request.urlopen(request).read().strip() == b"processed"

    # Staff approve in the admin.
    django_user_model.objects.create_superuser("staff", "staff@example.org", "staff-Passphrase-42")
    staff = browser.new_context().new_page()
    staff.goto(live_server.url + "/admin/login/")
    staff.fill("#id_username", "staff")
    staff.fill("#id_password", "staff-Passphrase-42")
    staff.click("input[type=submit]")
    staff.goto(live_server.url + "/admin/sponsors/sponsorship/?status__exact=applied")
    staff.check(f"input[name=_selected_action][value='{sponsorship.pk}']")
    staff.select_option("select[name=action]", "approve")
    staff.click("button[name=index]")
    assert "1 sponsorship approved" in staff.locator(".messagelist").inner_text()

    page.goto(live_server.url + "/supporters/")
    gold = page.locator("section.tier-section", has_text="Gold sponsors")
    assert "Thank you, Acme Databases!" in gold.inner_text()
    page.screenshot(path=str(ARTIFACTS / "supporters.png"), full_page=True)
    page.goto(live_server.url + "/sponsors/dashboard/")
    assert "Active" in page.content()
    context.close()
