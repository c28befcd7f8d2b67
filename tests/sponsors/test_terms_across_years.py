"""A sponsorship's life across years, with the clock moved (time-machine): a sponsor who
pays by card and one who pays by invoice, each through two renewals, starting today, on
29 February and on a 31st. At every step the dashboard and the organisation page list
every open invoice until it is paid and every document issued after; each term is named
by its dates on the pages, the documents and the mails; the renewal is offered the way
the sponsor pays (a card payer renews by card through the card element, an invoice payer
gets an invoice, and pressing "renew" again shows the open invoice and how to pay it);
every step is mailed through the outbox."""

import html
import re
import time as clock
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from invoicing.models import IssuedDocument
from outbox.models import OutboxItem
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle, recording
from sponsors.tasks import run_sponsorship_renewals
from sponsors.terms import Term, long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event
from tests.stripe_js import confirm_card_setup

pytestmark = pytest.mark.django_db
S = Sponsorship.Status
ONE_DAY = timedelta(days=1)
# The first day of the first term: the day the suite runs as (TEST_TODAY), 29 February of a
# leap year, and the last day of a year (a term across two calendar years from its start).
STARTS = {"today": None, "29-february": date(2028, 2, 29), "a-31st": date(2027, 12, 31)}


@pytest.fixture
def on(client, sponsor):
    """The clock at 09:00 UTC on ``day`` (time-machine; it goes on ticking from there),
    with the sponsor's manager signed in that day (a session does not last for years)."""

    @contextmanager
    def travel(day: date):
        with time_machine.travel(datetime.combine(day, time(9), tzinfo=UTC)):
            client.force_login(sponsor[1])
            yield

    return travel


@pytest.fixture(params=STARTS, ids=list(STARTS))
def first_day(request):
    return STARTS[request.param] or timezone.localdate()


@pytest.fixture
def sponsor(client):
    manager = UserFactory(email="cfo@acme.example")
    organisation = OrganisationFactory(
        managers=[manager], name="Acme Data Oy", billing_email="billing@acme.example"
    )
    return organisation, manager


@pytest.fixture
def steps(django_capture_on_commit_callbacks):
    """Run a step as a request does: its outbox items delivered after the commit."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def listed(page) -> list[str]:
    """The documents a page lists, as a person reads them."""
    items = re.findall(r'<ul class="documents">(.*?)</ul>', page.content.decode(), re.S)
    rows = re.findall(r"<li[^>]*>(.*?)</li>", "".join(items), re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", "", row).split())) for row in rows]


def both_pages(client, organisation):
    return [client.get("/sponsors/dashboard/"), client.get(organisation.get_absolute_url())]


def assert_listed(client, organisation, *expected):
    """Each line is on the dashboard and the organisation page, and nothing else is."""
    for page in both_pages(client, organisation):
        assert sorted(listed(page)) == sorted(expected), page.wsgi_request.path


def agreement_line(manager, sponsorship):
    return (
        f"Agreement, version 1 (PDF): accepted by {manager.email} on "
        f"{long_date(sponsorship.accepted_at.date())}"
    )


def subjects_since(mark: int) -> list[str]:
    return [message.subject for message in mail.outbox[mark:]]


def delivered_by_the_outbox(*kinds):
    """Every mail went through the outbox: its items are done."""
    for kind in kinds:
        items = OutboxItem.objects.filter(kind=kind)
        assert items.exists(), kind
        assert set(items.values_list("status", flat=True)) <= {OutboxItem.Status.DONE}, kind


def apply(organisation, manager, method):
    tier = TierFactory()
    version = applications.current_agreement(tier).version
    return applications.apply(organisation, tier, method, manager, agreement_version=version)


# By card -----------------------------------------------------------------------------------


def card_steps(client, url, sponsorship):
    """The card page's script (static/js/card-payment.js) with localstripe's Stripe.js
    confirming the card, as tests/stripe_js.py does: the card goes to the fake only."""
    fields = {"amount": "50000.00", "currency": "EUR", "payment_method": "card_once"}
    setup = client.post(url, {**fields, "stage": "setup"}).json()
    assert confirm_card_setup(setup["client_secret"])["status"] == "succeeded"
    intent = setup["client_secret"].split("_secret_")[0]
    paid = client.post(url, {**fields, "stage": "pay", "setup_intent": intent}).json()
    assert paid["status"] == "succeeded", paid
    sponsorship.refresh_from_db()
    return sponsorship.stripe_payment_intent_id


def stripe_confirms(post_event, sponsorship, intent):
    """Stripe's payment_intent.succeeded for the intent the card made, now."""
    payload = {
        "id": intent,
        "object": "payment_intent",
        "amount_received": 5_000_000,
        "currency": "eur",
        "created": int(clock.time()),
        "metadata": {"sponsorship": str(sponsorship.pk)},
    }
    answer = post_event(event(f"evt_{intent}", "payment_intent.succeeded", payload))
    assert answer.content.decode().strip() == "processed"


def test_a_card_sponsor_renews_by_card_twice(
    client, fake_stripe, sponsor, first_day, steps, post_event, on
):
    organisation, manager = sponsor
    staff = UserFactory(is_staff=True)
    term1 = Term.one_year_from(first_day)
    term2, term3 = term1.following(), term1.following().following()
    pay_url = None

    with on(first_day):
        sponsorship = steps(apply, organisation, manager, Sponsorship.Payment.CARD_ONCE)
        pay_url = f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/"
        intent = card_steps(client, pay_url, sponsorship)
        steps(stripe_confirms, post_event, sponsorship, intent)
        steps(lifecycle.approve, sponsorship, staff)
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.current_term) == (S.ACTIVE, term1)
        assert subjects_since(0) == [
            "We received your sponsorship application",
            f"Payment received: €50,000 for Gold sponsor, {term1}",
            "Your sponsorship is active: thank you!",
        ]
        (receipt1,) = IssuedDocument.objects.receipts()
        assert_listed(
            client,
            organisation,
            agreement_line(manager, sponsorship),
            f"Receipt {receipt1.number} (PDF): €50,000 paid on {long_date(first_day)} for the term {term1}",
        )
        page = client.get("/sponsors/dashboard/")
        assertContains(page, f"<dd>{term1}</dd>", html=True)
        agreement = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf")
        assert agreement.status_code == 200

    # A month before the end: due for renewal, reminded, and offered the card again.
    with on(term1.ends_on - timedelta(days=30)):
        mark = len(mail.outbox)
        steps(run_sponsorship_renewals)
        sponsorship.refresh_from_db()
        assert sponsorship.status == S.EXPIRING
        assert subjects_since(mark) == [
            "Your sponsorship is due for renewal",
            "Your sponsorship ends in 30 days",
        ]
        assert f"The next term, {term2}, follows this one" in mail.outbox[-1].body
        assert "you pay it by card there, as before" in mail.outbox[-1].body
        renew = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        assertContains(
            renew,
            f'<button class="button" type="submit" data-pay-button>Pay €50,000 for {term2}</button>',
            html=True,
        )
        assertContains(renew, "data-invoice-instead hidden")  # the invoice only if Stripe fails

    with on(term1.ends_on - timedelta(days=20)):
        mark = len(mail.outbox)
        intent2 = card_steps(
            client, f"/sponsors/sponsorships/{sponsorship.pk}/renew/card/", sponsorship
        )
        assert intent2 != intent
        waiting = client.get("/sponsors/dashboard/")
        assertContains(waiting, f"Your renewal payment for the next term, {term2}, is with Stripe")
        steps(stripe_confirms, post_event, sponsorship, intent2)
        sponsorship.refresh_from_db()
        assert sponsorship.status == S.ACTIVE
        assert (sponsorship.current_term, sponsorship.terms_ahead) == (term1, [term2])
        assert sponsorship.ends_on == term2.ends_on
        assert subjects_since(mark) == [
            f"Payment received: €50,000 for Gold sponsor, {term2}",
            "Your sponsorship is active: thank you!",  # expiring no more
        ]
        assert f"It pays for the term {term2}." in mail.outbox[mark].body
        assert (
            f"The sponsorship is paid until {long_date(term2.ends_on)}." in mail.outbox[mark].body
        )
        receipt2 = IssuedDocument.objects.receipts().get(occasion=intent2)
        assert_listed(
            client,
            organisation,
            agreement_line(manager, sponsorship),
            f"Receipt {receipt1.number} (PDF): €50,000 paid on {long_date(first_day)} for the term {term1}",
            f"Receipt {receipt2.number} (PDF): €50,000 paid on {long_date(timezone.localdate())} for the term {term2}",
        )
        page = client.get("/sponsors/dashboard/")
        assertContains(page, f"<dt>Next term</dt><dd>{term2}, paid</dd>", html=True)
        again = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/", follow=True)
        assertContains(again, f"The next term, {term2}, is paid already.")

    with on(term2.starts_on):
        steps(run_sponsorship_renewals)
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.current_term) == (S.ACTIVE, term2)

    # A week before the second term ends: reminded (both reminders fall due), renewed by card.
    with on(term2.ends_on - timedelta(days=7)):
        mark = len(mail.outbox)
        steps(run_sponsorship_renewals)
        assert subjects_since(mark) == [
            "Your sponsorship is due for renewal",
            "Your sponsorship ends in 30 days",
            "Your sponsorship ends in 7 days",
        ]
        intent3 = card_steps(
            client, f"/sponsors/sponsorships/{sponsorship.pk}/renew/card/", sponsorship
        )
        steps(stripe_confirms, post_event, sponsorship, intent3)
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.ends_on) == (S.ACTIVE, term3.ends_on)
        assert sponsorship.payment_method == Sponsorship.Payment.CARD_ONCE
        receipt3 = IssuedDocument.objects.receipts().get(occasion=intent3)
        assert (
            f"Receipt {receipt3.number} (PDF): €50,000 paid on "
            f"{long_date(timezone.localdate())} for the term {term3}"
        ) in listed(client.get("/sponsors/dashboard/"))
        assert IssuedDocument.objects.invoices().count() == 0  # a card payer got no invoice
    delivered_by_the_outbox(
        "sponsors.status_mail", "sponsors.payment_received", "sponsors.renewal_reminder"
    )

    with on(term3.ends_on + timedelta(days=lifecycle.GRACE_DAYS + 1)):
        steps(run_sponsorship_renewals)
        sponsorship.refresh_from_db()
        assert sponsorship.status == S.LAPSED
        assertNotContains(client.get("/supporters/"), "Acme Data Oy")


def subscription_paid(post_event, sponsorship, invoice_id):
    """Stripe's invoice.payment_succeeded for one year of the sponsorship's subscription."""
    payload = {
        "id": invoice_id,
        "object": "invoice",
        "amount_paid": 5_000_000,
        "currency": "eur",
        "created": int(clock.time()),
        "subscription": sponsorship.stripe_subscription_id,
        "metadata": {"sponsorship": str(sponsorship.pk)},
    }
    answer = post_event(event(f"evt_{invoice_id}", "invoice.payment_succeeded", payload))
    assert answer.content.decode().strip() == "processed"


def test_a_yearly_card_sponsor_is_renewed_by_stripe_then_renews_by_card_once_stopped(
    client, fake_stripe, sponsor, first_day, steps, post_event, on
):
    organisation, manager = sponsor
    term1 = Term.one_year_from(first_day)
    term2, term3 = term1.following(), term1.following().following()
    with on(first_day):
        sponsorship = steps(apply, organisation, manager, Sponsorship.Payment.CARD_ANNUAL)
        fields = {"amount": "50000.00", "currency": "EUR", "payment_method": "card_annual"}
        url = f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/"
        setup = client.post(url, {**fields, "stage": "setup"}).json()
        assert confirm_card_setup(setup["client_secret"])["status"] == "succeeded"
        intent = setup["client_secret"].split("_secret_")[0]
        assert (
            client.post(url, {**fields, "stage": "pay", "setup_intent": intent}).json()["status"]
            == "succeeded"
        )
        sponsorship.refresh_from_db()
        steps(subscription_paid, post_event, sponsorship, "in_year_1")
        steps(lifecycle.approve, sponsorship, UserFactory(is_staff=True))
        page = client.get("/sponsors/dashboard/")
        assertContains(
            page,
            f"Nothing to do: it renews by card on {long_date(term2.starts_on)}, for the next term, {term2}.",
        )
        renew = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/", follow=True)
        assertContains(renew, "This sponsorship renews by card on its own.")

    with on(term2.starts_on):  # Stripe charges the card on the anniversary
        steps(run_sponsorship_renewals)
        steps(subscription_paid, post_event, sponsorship, "in_year_2")
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.current_term) == (S.ACTIVE, term2)
        receipt = IssuedDocument.objects.receipts().get(occasion="in_year_2")
        assert (
            f"Receipt {receipt.number} (PDF): €50,000 paid on {long_date(term2.starts_on)} for the term {term2}"
            in listed(client.get("/sponsors/dashboard/"))
        )

    # The sponsor stops the yearly renewal; once Stripe has ended it, they renew by card.
    with on(term2.ends_on - timedelta(days=40)):
        mark = len(mail.outbox)
        steps(client.post, f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
        assert subjects_since(mark) == ["Your sponsorship will not renew"]
        renew = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        assertContains(
            renew, "You stopped the renewal earlier: paying for the next term takes that back."
        )
        intent3 = card_steps(
            client, f"/sponsors/sponsorships/{sponsorship.pk}/renew/card/", sponsorship
        )
        steps(stripe_confirms, post_event, sponsorship, intent3)
        sponsorship.refresh_from_db()
        assert sponsorship.payment_method == Sponsorship.Payment.CARD_ONCE  # term by term now
        assert (sponsorship.renewal_stopped_at, sponsorship.ends_on) == (None, term3.ends_on)
        assert not sponsorship.renews_by_card
        assert "renewed by card for one term: the yearly card renewal was stopped" in [
            e.note for e in sponsorship.events.all()
        ]


# By invoice --------------------------------------------------------------------------------


@pytest.fixture
def invoicing_stripe(settings, invoicing_localstripe_url):
    """localstripe as `make run` starts it: it issues one-off invoices."""
    settings.STRIPE_API_BASE = invoicing_localstripe_url


def invoice_paid_at_stripe(post_event, sponsorship, invoice):
    payload = {
        "id": invoice.occasion,
        "object": "invoice",
        "amount_paid": 5_000_000,
        "currency": "eur",
        "created": int(clock.time()),
        "metadata": {"sponsorship": str(sponsorship.pk)},
    }
    answer = post_event(event(f"evt_{invoice.occasion}", "invoice.paid", payload))
    assert answer.content.decode().strip() == "processed"


def open_invoice_line(invoice, what):
    return (
        f"Invoice {invoice.number} (PDF): €50,000 for {what} "
        f"(open: due on {long_date(invoice.due_on)})"
    )


def paid_invoice_line(invoice, what):
    return (
        f"Invoice {invoice.number} (PDF): €50,000 for {what} (paid on {long_date(invoice.paid_on)})"
    )


def test_an_invoice_sponsor_renews_by_invoice_twice(
    client, invoicing_stripe, sponsor, first_day, steps, post_event, on
):
    organisation, manager = sponsor
    staff = UserFactory(is_staff=True)
    term1 = Term.one_year_from(first_day)
    term2, term3 = term1.following(), term1.following().following()
    first = "one year from the day the fee is paid"

    with on(first_day):
        sponsorship = steps(apply, organisation, manager, Sponsorship.Payment.INVOICE)
        steps(lifecycle.approve, sponsorship, staff)
        (invoice1,) = IssuedDocument.objects.invoices()
        assert subjects_since(0) == [
            "We received your sponsorship application",
            "Your sponsorship is approved and awaiting payment",
            f"Invoice {invoice1.number}: Gold sponsor, one year from the day the fee is paid",
        ]
        assert "It pays for the first term" in mail.outbox[-1].body
        assert_listed(
            client,
            organisation,
            open_invoice_line(invoice1, first),
            agreement_line(manager, sponsorship),
        )
        mark = len(mail.outbox)
        steps(recording.record_transfer, sponsorship, staff)  # staff saw the transfer arrive
        sponsorship.refresh_from_db()
        invoice1.refresh_from_db()
        assert (sponsorship.status, sponsorship.current_term) == (S.ACTIVE, term1)
        assert subjects_since(mark) == [
            f"Payment received: €50,000 for Gold sponsor, {term1}",
            "Your sponsorship is active: thank you!",
        ]
        (receipt1,) = IssuedDocument.objects.receipts()
        assert_listed(
            client,
            organisation,
            agreement_line(manager, sponsorship),
            paid_invoice_line(invoice1, first),
            f"Receipt {receipt1.number} (PDF): €50,000 paid on {long_date(first_day)} for the term {term1}",
        )

    # The month before the end: the renewal invoice is for the next term, by its dates.
    with on(term1.ends_on - timedelta(days=30)):
        steps(run_sponsorship_renewals)
        renew = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        assertContains(renew, "Send the renewal invoice")
        assertNotContains(renew, "data-card-payment")
        mark = len(mail.outbox)
        steps(client.post, f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        invoice2 = IssuedDocument.objects.invoices().exclude(pk=invoice1.pk).get()
        (message,) = [m for m in mail.outbox[mark:] if m.subject.startswith("Invoice")]
        assert message.subject == f"Invoice {invoice2.number}: Gold sponsor, the term {term2}"
        assert f"It pays for the term {term2}: the renewal" in message.body
        assert f"For: the term {term2}" in message.body
        assert "starts when the payment arrives" not in message.body
        assert f"renewal, the term {term2}" in invoice2.content["lines"][0]["description"]
        lines = [
            agreement_line(manager, sponsorship),
            paid_invoice_line(invoice1, first),
            f"Receipt {receipt1.number} (PDF): €50,000 paid on {long_date(first_day)} for the term {term1}",
        ]
        assert_listed(
            client, organisation, open_invoice_line(invoice2, f"the term {term2}"), *lines
        )
        page = client.get("/sponsors/dashboard/")
        assertContains(page, f"Invoice {invoice2.number} for the next term, {term2}, was sent to")
        assertNotContains(page, "Nothing to do")
        # "Renew" again: the open invoice and how to pay it, never a second invoice.
        again = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        assertContains(
            again, f'<h1 id="renew-title">Invoice {invoice2.number} is open</h1>', html=True
        )
        assertContains(again, f"quoting the reference <strong>{invoice2.number}</strong>")
        assertContains(again, f"it then runs until {long_date(term2.ends_on)}")
        steps(client.post, f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        assert IssuedDocument.objects.invoices().count() == 2

    # Paid on Stripe's invoice page, after the term ended (in the grace days): the next term
    # still starts the day after the paid one, as the invoice said.
    with on(term1.ends_on + timedelta(days=3)):
        steps(run_sponsorship_renewals)
        steps(invoice_paid_at_stripe, post_event, sponsorship, invoice2)
        sponsorship.refresh_from_db()
        invoice2.refresh_from_db()
        assert (sponsorship.status, sponsorship.current_term) == (S.ACTIVE, term2)
        receipt2 = IssuedDocument.objects.receipts().get(occasion=invoice2.occasion)
        lines += [
            paid_invoice_line(invoice2, f"the term {term2}"),
            f"Receipt {receipt2.number} (PDF): €50,000 paid on {long_date(timezone.localdate())} for the term {term2}",
        ]
        assert_listed(client, organisation, *lines)

    with on(term2.ends_on - timedelta(days=10)):
        steps(run_sponsorship_renewals)
        steps(client.post, f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
        invoice3 = IssuedDocument.objects.invoices().order_by("id").last()
        assert_listed(
            client, organisation, open_invoice_line(invoice3, f"the term {term3}"), *lines
        )
        steps(recording.record_transfer, sponsorship, staff)
        sponsorship.refresh_from_db()
        invoice3.refresh_from_db()
        assert sponsorship.ends_on == term3.ends_on
        receipt3 = IssuedDocument.objects.receipts().get(occasion=f"transfer-{invoice3.number}")
        assert_listed(
            client,
            organisation,
            *lines,
            paid_invoice_line(invoice3, f"the term {term3}"),
            f"Receipt {receipt3.number} (PDF): €50,000 paid on {long_date(timezone.localdate())} for the term {term3}",
        )
        receipt_pdf = client.get(
            f"/sponsors/sponsorships/{sponsorship.pk}/documents/{receipt3.number}.pdf"
        )
        assert receipt_pdf.status_code == 200
    delivered_by_the_outbox(
        "sponsors.status_mail",
        "sponsors.invoice_mail",
        "sponsors.payment_received",
        "sponsors.send_invoice",
    )
