"""The renewal page: a card payer pays the next term in Stripe.js's card element (against
localstripe, with the card confirmed as Stripe.js confirms it); a declined card or 3-D
Secure left waiting takes nothing and may be tried again; Stripe out of reach offers the
invoice instead; a page showing another price is refused; an invoice asked for twice is
issued once; a sponsorship whose next term is paid, or that Stripe renews, offers none."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from invoicing.models import IssuedDocument
from outbox import delivery
from outbox.models import OutboxItem
from sponsors import stripe_gateway
from sponsors.models import Sponsorship
from sponsors.services import lifecycle, recording
from sponsors.stripe_tasks import SEND_INVOICE
from sponsors.terms import Term
from tests.sponsors.factories import ActiveSponsorshipFactory, OrganisationFactory
from tests.stripe_js import ASKS_3DS, DECLINED, PAYS, confirm_card_setup

pytestmark = pytest.mark.django_db
CLOSED_PORT = "http://127.0.0.1:9"
PRICE = {"amount": "50000.00", "currency": "EUR", "payment_method": "card_once"}


@pytest.fixture
def card_payer(client):
    """A card payer in the last month of a term: the next term is for renewing."""
    organisation = OrganisationFactory()
    client.force_login(organisation.managers.get())
    term = Term.one_year_from(timezone.localdate() - timedelta(days=340))
    return ActiveSponsorshipFactory(
        organisation=organisation,
        payment_method=Sponsorship.Payment.CARD_ONCE,
        status=Sponsorship.Status.EXPIRING,
        paid_at=timezone.now(),
        starts_on=term.starts_on,
        ends_on=term.ends_on,
    )


def step(client, sponsorship, stage, **extra):
    answer = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/renew/card/", {**PRICE, "stage": stage, **extra}
    )
    return answer.status_code, json.loads(answer.content)


def test_the_page_offers_the_next_term_by_card(client, card_payer):
    page = client.get(f"/sponsors/sponsorships/{card_payer.pk}/renew/")
    following = Term.one_year_from(card_payer.ends_on + timedelta(days=1))
    assertContains(page, f"The next term, <strong>{following}</strong>, follows the paid one")
    assertContains(
        page,
        '<input type="hidden" name="payment_method" value="card_once" id="id_payment_method">',
        html=True,
    )
    assertContains(page, f'data-card-url="/sponsors/sponsorships/{card_payer.pk}/renew/card/"')


def test_a_declined_card_takes_nothing_and_another_card_pays(client, card_payer, fake_stripe):
    status, answer = step(client, card_payer, "setup")
    assert status == 200
    refused = confirm_card_setup(answer["client_secret"], DECLINED)
    assert "declined" in refused["error"]["message"]
    card_payer.refresh_from_db()
    assert not card_payer.renewal_pending and card_payer.stripe_payment_intent_id == ""
    status, answer = step(client, card_payer, "setup")
    assert confirm_card_setup(answer["client_secret"], PAYS)["status"] == "succeeded"
    setup = answer["client_secret"].split("_secret_")[0]
    assert step(client, card_payer, "pay", setup_intent=setup)[1]["status"] == "succeeded"
    assert step(client, card_payer, "pay", setup_intent=setup)[1]["status"] == "succeeded"  # twice
    card_payer.refresh_from_db()
    assert card_payer.renewal_pending  # until Stripe's event records it
    page = client.get("/sponsors/dashboard/")
    assertContains(page, "Your renewal payment for the next term")


def test_3d_secure_left_waiting_gives_way_to_the_next_attempt(client, card_payer, fake_stripe):
    _, answer = step(client, card_payer, "setup")
    assert confirm_card_setup(answer["client_secret"], ASKS_3DS)["status"] == "succeeded"
    setup = answer["client_secret"].split("_secret_")[0]
    assert step(client, card_payer, "pay", setup_intent=setup)[1]["status"] == "requires_action"
    # the tab was closed at the prompt; the renewal page is still offered, and pays
    page = client.get(f"/sponsors/sponsorships/{card_payer.pk}/renew/")
    assertContains(page, "data-card-payment")
    _, answer = step(client, card_payer, "setup")
    assert confirm_card_setup(answer["client_secret"], PAYS)["status"] == "succeeded"
    setup = answer["client_secret"].split("_secret_")[0]
    assert step(client, card_payer, "pay", setup_intent=setup)[1]["status"] == "succeeded"


def test_stripe_out_of_reach_offers_the_invoice_instead(client, card_payer, settings):
    settings.STRIPE_API_BASE = CLOSED_PORT
    status, answer = step(client, card_payer, "setup")
    assert (status, answer["offer_invoice"]) == (503, True)
    assert "nothing was charged" in answer["error"]
    page = client.get(f"/sponsors/sponsorships/{card_payer.pk}/renew/")
    assertContains(page, "Renew by invoice instead")
    client.post(f"/sponsors/sponsorships/{card_payer.pk}/renew/")
    card_payer.refresh_from_db()
    assert card_payer.payment_method == Sponsorship.Payment.INVOICE  # by invoice from now on
    assert OutboxItem.objects.filter(kind=SEND_INVOICE).count() == 1


def test_a_page_that_showed_another_price_is_refused(client, card_payer):
    answer = client.post(
        f"/sponsors/sponsorships/{card_payer.pk}/renew/card/",
        {**PRICE, "amount": "1.00", "stage": "setup"},
    )
    assert answer.status_code == 409
    assert "Nothing was charged" in json.loads(answer.content)["error"]


def test_an_invoice_asked_for_twice_is_issued_once(client, card_payer):
    Sponsorship.objects.filter(pk=card_payer.pk).update(payment_method="invoice")
    url = f"/sponsors/sponsorships/{card_payer.pk}/renew/"
    client.post(url)
    again = client.post(url, follow=True)  # before the outbox issued the first
    assertContains(again, "is being issued and will be sent to")
    assert OutboxItem.objects.filter(kind=SEND_INVOICE).count() == 1
    assert not IssuedDocument.objects.exists()
    dashboard = client.get("/sponsors/dashboard/")
    assertContains(dashboard, "The invoice for the next term")
    assertNotContains(dashboard, "Nothing to do")


def test_a_renewal_paid_while_its_invoice_is_being_issued_is_not_invoiced(
    client, card_payer, monkeypatch, django_capture_on_commit_callbacks
):
    Sponsorship.objects.filter(pk=card_payer.pk).update(payment_method="invoice")
    client.post(f"/sponsors/sponsorships/{card_payer.pk}/renew/")  # the outbox has not run
    following = Term.one_year_from(card_payer.ends_on + timedelta(days=1))
    recording.record_payment(  # the sponsor paid the next term by other means meanwhile
        card_payer.pk,
        stripe_id="pi_meanwhile",
        amount_minor=5_000_000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    card_payer.refresh_from_db()
    assert (card_payer.ends_on, card_payer.renewal_invoice_requested_for) == (
        following.ends_on,
        None,
    )
    monkeypatch.setattr(stripe_gateway, "send_invoice", lambda *args: pytest.fail("invoiced"))
    (item,) = OutboxItem.objects.filter(kind=SEND_INVOICE)
    delivery.deliver(item.pk)
    assert not IssuedDocument.objects.invoices().exists()


def test_a_lapsed_sponsorship_paying_its_renewal_starts_a_term_on_the_day_it_pays(card_payer):
    lifecycle.run_renewals(card_payer.ends_on + timedelta(days=lifecycle.GRACE_DAYS + 1))
    card_payer.refresh_from_db()
    assert card_payer.status == Sponsorship.Status.LAPSED
    recording.record_payment(
        card_payer.pk,
        stripe_id="pi_late",
        amount_minor=5_000_000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    card_payer.refresh_from_db()
    assert card_payer.status == Sponsorship.Status.ACTIVE
    assert card_payer.current_term == Term.one_year_from(timezone.localdate())
    receipt = IssuedDocument.objects.receipts().get(occasion="pi_late")
    assert f"the term {card_payer.current_term}" in receipt.content["lines"][0]["description"]
