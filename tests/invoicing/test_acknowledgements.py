"""Every step is acknowledged by mail (application, payment, approval, renewal due,
cancellation; a monthly gift cancelled); a payment waiting for Stripe's confirmation is
never offered again; the term is stated from the day it starts."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from donations.models import Donation
from donations.services import recording as gift_recording
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle, recording
from tests.donations.factories import DonationFactory, GiftFactory
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db


def _mails_to(address):
    return [m for m in mail.outbox if address in m.to]


def test_the_sponsor_hears_of_the_application_the_payment_and_the_approval(
    client, django_capture_on_commit_callbacks
):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    with django_capture_on_commit_callbacks(execute=True):
        sponsorship = applications.apply(
            organisation, TierFactory(), Sponsorship.Payment.CARD_ONCE, manager
        )
    (received,) = _mails_to(manager.email)
    assert received.subject == "We received your sponsorship application"
    assert "we received your application for Gold sponsor" in received.body
    assert "€50,000 a year" in received.body

    mail.outbox.clear()
    paid_at = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    with django_capture_on_commit_callbacks(execute=True):
        recording.record_payment(
            sponsorship.pk, stripe_id="pi_1", amount_minor=5000000, currency="EUR", paid_at=paid_at
        )
    (payment_mail,) = _mails_to(manager.email)
    # the term named by its dates, from the day it was paid, whatever day the test runs
    assert payment_mail.subject == (
        "Payment received: €50,000 for Gold sponsor, 2 March 2026 – 1 March 2027"
    )
    assert "Receipt RCT-000001: http" in payment_mail.body
    assert "It pays for the term 2 March 2026 – 1 March 2027." in payment_mail.body
    assert "becomes active once staff approve the application" in payment_mail.body
    sponsorship.refresh_from_db()
    assert (sponsorship.starts_on, sponsorship.ends_on) == (
        datetime(2026, 3, 2).date(),
        datetime(2027, 3, 1).date(),
    )
    client.force_login(manager)
    page = client.get("/sponsors/dashboard/")
    assertNotContains(page, "Starts on the day the fee is paid")
    assertContains(
        page, "<dd>2 March 2026 – 1 March 2027 (paid; listed once staff approve)</dd>", html=True
    )

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    (active,) = _mails_to(manager.email)
    assert active.subject == "Your sponsorship is active: thank you!"
    sponsorship.refresh_from_db()
    assert sponsorship.ends_on == datetime(2027, 3, 1).date()  # approval does not move it


def test_while_stripe_has_not_confirmed_the_dashboard_offers_no_second_payment(client):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.CARD_ANNUAL, manager
    )
    client.force_login(manager)
    assertContains(client.get("/sponsors/dashboard/"), "Pay €50,000</a>")
    # What the pay page's "pay" step saves once Stripe made the subscription.
    Sponsorship.objects.filter(pk=sponsorship.pk).update(stripe_subscription_id="sub_waiting")
    page = client.get("/sponsors/dashboard/")
    assertNotContains(page, "Pay €50,000")
    assertContains(page, "Your payment is with Stripe")
    assertContains(page, "Nothing more to pay")


def test_a_renewal_reminder_and_a_cancellation_are_mailed(django_capture_on_commit_callbacks):
    manager = UserFactory()
    organisation = OrganisationFactory(managers=[manager])
    sponsorship = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    recording.record_payment(
        sponsorship.pk,
        stripe_id="pi_2",
        amount_minor=5000000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    lifecycle.approve(sponsorship, None)
    mail.outbox.clear()
    sponsorship.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.run_renewals(sponsorship.ends_on - timedelta(days=29))
    subjects = {m.subject for m in _mails_to(manager.email)}
    assert {"Your sponsorship is due for renewal", "Your sponsorship ends in 30 days"} <= subjects


def test_a_cancelled_monthly_gift_is_confirmed_by_mail(django_capture_on_commit_callbacks):
    donation = DonationFactory(
        frequency=Donation.Frequency.MONTHLY,
        status=Donation.Status.ACTIVE,
        stripe_subscription_id="sub_1",
        cancel_requested_at=timezone.now(),
    )
    GiftFactory(donation=donation)
    with django_capture_on_commit_callbacks(execute=True):
        gift_recording.subscription_cancelled(donation)
        gift_recording.subscription_cancelled(donation)  # Stripe repeats itself: one mail
    (message,) = _mails_to(donation.email)
    assert message.subject == "Your monthly gift of €25 is cancelled"
    assert "No further payment will be taken" in message.body
    assert "The last payment was €25 on 10 March 2026" in message.body
