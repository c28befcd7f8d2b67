"""A sponsor's whole year: "cancel" of a paid year stops the renewal and keeps the sponsor
listed, with every benefit, until the paid term ends; renewing early adds the next year
to the end of the paid one; the renewal reminder leads there."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from invoicing.models import IssuedDocument
from sponsors.models import Sponsorship
from sponsors.services import lifecycle, recording
from sponsors.terms import Term, long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import ActiveSponsorshipFactory, OrganisationFactory

pytestmark = pytest.mark.django_db
S = Sponsorship.Status


@pytest.fixture
def running(db):
    manager = UserFactory()
    today = timezone.localdate()
    sponsorship = ActiveSponsorshipFactory(
        organisation=OrganisationFactory(managers=[manager], name="Acme Databases"),
        payment_method=Sponsorship.Payment.CARD_ONCE,
        paid_at=timezone.now(),
        starts_on=today - timedelta(days=100),
        ends_on=today + timedelta(days=265),
    )
    return sponsorship, manager


def test_cancelling_a_paid_year_keeps_the_sponsor_listed_until_its_end(
    client, running, django_capture_on_commit_callbacks
):
    sponsorship, manager = running
    client.force_login(manager)
    confirm = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    assertContains(confirm, "Stop the renewal of the Gold sponsorship?")
    assertContains(confirm, f"until the paid term ends on {sponsorship.ends_on:%-d %B %Y}")
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/", follow=True)
    assertContains(answer, "will not renew")
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE and sponsorship.renewal_stopped_at
    assert any(m.subject == "Your sponsorship will not renew" for m in mail.outbox)
    assertContains(client.get("/supporters/"), "Acme Databases")
    # no reminder while it runs out; the day after the end, it ends
    lifecycle.run_renewals(sponsorship.ends_on - timedelta(days=7))
    sponsorship.refresh_from_db()
    assert sponsorship.status in (S.ACTIVE, S.EXPIRING) and sponsorship.reminders_sent == []
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.run_renewals(sponsorship.ends_on + timedelta(days=1))
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assertNotContains(client.get("/supporters/"), "Acme Databases")


def test_a_stopped_renewal_can_be_taken_back(client, running):
    sponsorship, manager = running
    lifecycle.stop_renewal(sponsorship, manager)
    client.force_login(manager)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/resume-renewal/")
    sponsorship.refresh_from_db()
    assert sponsorship.renewal_stopped_at is None and sponsorship.status == S.ACTIVE


def test_renewing_early_adds_the_next_year_to_the_end_of_the_paid_one(
    client, running, monkeypatch, django_capture_on_commit_callbacks
):
    from sponsors import stripe_gateway
    from tests.sponsors.helpers import issued

    sponsorship, manager = running
    end = sponsorship.ends_on
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_e")
    monkeypatch.setattr(stripe_gateway, "send_invoice", lambda *args: issued("in_early"))
    client.force_login(manager)
    page = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
    assertContains(page, f"adds a year to {end:%-d %B %Y}")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
    assert IssuedDocument.objects.invoices().filter(occasion="in_early").exists()
    recording.record_payment(
        sponsorship.pk,
        stripe_id="in_early",
        amount_minor=5000000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    sponsorship.refresh_from_db()
    following = Term.one_year_from(end + timedelta(days=1))
    assert sponsorship.ends_on == following.ends_on
    receipt = IssuedDocument.objects.receipts().get(occasion="in_early")
    assert f"the term {following}" in receipt.content["lines"][0]["description"]
    assert IssuedDocument.objects.invoices().get(occasion="in_early").paid_by == "card"


def test_the_renewal_reminder_leads_to_the_renewal(running, django_capture_on_commit_callbacks):
    sponsorship, _manager = running
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.run_renewals(sponsorship.ends_on - timedelta(days=30))
    (reminder,) = [m for m in mail.outbox if m.subject == "Your sponsorship ends in 30 days"]
    assert f"/sponsors/sponsorships/{sponsorship.pk}/renew/" in reminder.body
    following = Term.one_year_from(sponsorship.ends_on + timedelta(days=1))
    assert f"The next term, {following}, follows this one" in reminder.body


def test_an_invoice_sponsor_renews_early_with_a_new_invoice_for_the_next_year(
    client, running, monkeypatch, django_capture_on_commit_callbacks
):
    from sponsors import stripe_gateway
    from tests.sponsors.helpers import issued

    sponsorship, manager = running
    Sponsorship.objects.filter(pk=sponsorship.pk).update(payment_method="invoice")
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_r")
    monkeypatch.setattr(stripe_gateway, "send_invoice", lambda *args: issued("in_renewal"))
    client.force_login(manager)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/renew/")
    invoice = IssuedDocument.objects.invoices().get(occasion="in_renewal")
    end = sponsorship.ends_on
    following = Term.one_year_from(end + timedelta(days=1))
    assert f"renewal, the term {following}" in invoice.content["lines"][0]["description"]
    assert timezone.localdate() <= end


def test_the_agreement_pdf_lists_the_benefits_with_their_dates(client, running):
    from sponsors.benefits import demo as benefit_demo
    from sponsors.benefits.models import Benefit
    from tests.invoicing.helpers import pdf_text

    sponsorship, manager = running
    tier = sponsorship.tier
    tier.year = timezone.localdate().year
    tier.save()
    benefit_demo.load(lambda message: None)
    assert Benefit.objects.filter(tier=tier).count() == 5  # Gold: the demo's kinds of benefit
    Sponsorship.objects.filter(pk=sponsorship.pk).update(
        accepted_at=timezone.now(), agreement_text="4. The benefits are listed with this agreement."
    )
    client.force_login(manager)
    text = pdf_text(client.get(f"/sponsors/sponsorships/{sponsorship.pk}/agreement.pdf"))
    start = sponsorship.starts_on
    assert "The benefits and their dates" in text
    assert (
        "Logo on the supporters page and the home page (demo): due by "
        f"{long_date(start + timedelta(days=14))} (needs from you: a logo)"
    ) in text
    assert (
        "2 passes to the foundation's yearly conference (demo): due by "
        f"{long_date(start + timedelta(days=90))}"
    ) in text
    assert f"Term: {sponsorship.current_term}" in text
