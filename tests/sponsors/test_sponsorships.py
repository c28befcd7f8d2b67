from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains

from core.transitions import TransitionRefused
from outbox.models import OutboxItem
from payments import gateway
from sponsors import stripe_gateway
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services import applications, lifecycle, recording, transitions
from sponsors.terms import Term
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event, issued, pay_by_card

pytestmark = pytest.mark.django_db
S = Sponsorship.Status


@pytest.fixture
def application():
    staff = UserFactory(is_staff=True)
    organisation = OrganisationFactory()
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.CARD_ANNUAL, organisation.managers.get()
    )
    return sponsorship, staff


def paid(sponsorship, stripe_id="pi_1"):
    return recording.record_payment(
        sponsorship.pk,
        stripe_id=stripe_id,
        amount_minor=5_000_000,
        currency="eur",
        paid_at=timezone.now(),
    )


def test_terms_are_copied_and_a_later_catalogue_change_does_not_alter_them(application):
    sponsorship, _ = application
    sponsorship.tier.annual_price = Decimal("99999")
    sponsorship.tier.save()
    sponsorship.refresh_from_db()
    assert sponsorship.terms["annual_price"] == "50000.00"


def test_approved_then_paid_becomes_active_and_every_step_is_recorded(
    application, django_capture_on_commit_callbacks
):
    sponsorship, staff = application
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, staff)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.AWAITING_PAYMENT
    with django_capture_on_commit_callbacks(execute=True):
        paid(sponsorship)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE
    assert sponsorship.current_term == Term.one_year_from(timezone.localdate())
    steps = list(
        SponsorshipEvent.objects.filter(sponsorship=sponsorship).values_list("to_status", "actor")
    )
    assert steps == [
        ("applied", sponsorship.organisation.managers.get().pk),
        ("approved", staff.pk),
        ("awaiting_payment", staff.pk),
        ("active", None),
    ]
    assert any("active" in m.subject for m in mail.outbox)


def test_paid_before_approval_goes_active_on_approval(application):
    sponsorship, staff = application
    paid(sponsorship)
    assert Sponsorship.objects.get().status == S.APPLIED
    lifecycle.approve(sponsorship, staff)
    assert Sponsorship.objects.get().status == S.ACTIVE


def test_invalid_transitions_are_refused_and_change_nothing(application):
    sponsorship, staff = application
    lifecycle.reject(sponsorship, staff)
    history = list(sponsorship.events.values_list("from_status", "to_status"))
    mails = OutboxItem.objects.count()
    with pytest.raises(TransitionRefused, match="Cannot approve a sponsorship that is Rejected"):
        lifecycle.approve(sponsorship, staff)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.REJECTED
    assert list(sponsorship.events.values_list("from_status", "to_status")) == history
    assert OutboxItem.objects.count() == mails  # no mail about a change that did not happen
    # Out of Cancelled only by the sponsor's undo, and never into a closed state.
    cancelled = applications.apply(OrganisationFactory(), sponsorship.tier, "invoice", None)
    cancelled = lifecycle.cancel(cancelled, staff)
    with pytest.raises(TransitionRefused, match="Cannot lapse a sponsorship that is Cancelled"):
        transitions.move(cancelled, "lapse")
    with pytest.raises(TransitionRefused, match="Cannot undo cancel a sponsorship to Rejected"):
        transitions.move(cancelled, "undo_cancel", to=S.REJECTED)
    cancelled.refresh_from_db()
    assert cancelled.status == S.CANCELLED


def test_capacity(application):
    sponsorship, _ = application
    tier = sponsorship.tier
    tier.capacity = 1
    tier.save()
    with pytest.raises(transitions.TierFull):
        applications.apply(OrganisationFactory(), tier, "invoice", None)


def test_renewal_reminders_expiring_and_lapse(application, django_capture_on_commit_callbacks):
    sponsorship, staff = application
    paid(sponsorship)
    lifecycle.approve(sponsorship, staff)
    end = Sponsorship.objects.get().ends_on
    with django_capture_on_commit_callbacks(execute=True):
        assert lifecycle.run_renewals(end - timedelta(days=30)) == {
            "reminders": 1,
            "expiring": 1,
            "lapsed": 0,
            "ended": 0,
        }
        assert lifecycle.run_renewals(end - timedelta(days=29)) == {
            "reminders": 0,
            "expiring": 0,
            "lapsed": 0,
            "ended": 0,
        }
        assert lifecycle.run_renewals(end - timedelta(days=7))["reminders"] == 1
    assert sum("ends in" in m.subject for m in mail.outbox) == 2
    assert lifecycle.run_renewals(end + timedelta(days=15))["lapsed"] == 1
    assert Sponsorship.objects.get().status == S.LAPSED


def test_supporters_page_is_cached_and_refreshed_on_change(
    client, application, django_capture_on_commit_callbacks
):
    sponsorship, staff = application
    paid(sponsorship)
    assert sponsorship.organisation.name not in client.get("/supporters/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, staff)
    response = client.get("/supporters/")
    tier = sponsorship.tier
    assertContains(response, f'<h2 id="tier-{tier.pk}">Gold sponsors</h2>', html=True)
    assertContains(
        response, f'<p class="thanks">Thank you, {sponsorship.organisation.name}! </p>', html=True
    )


# Webhooks ---------------------------------------------------------------------------------


def journey_events(sponsorship):
    return [
        event("evt_1", "customer.created", {"id": "cus_1", "object": "customer"}),
        event(
            "evt_2",
            "payment_intent.succeeded",
            {
                "id": "pi_9",
                "object": "payment_intent",
                "amount_received": 5000000,
                "currency": "eur",
                "created": 1767225600,
                "metadata": {"sponsorship": str(sponsorship.pk)},
            },
        ),
        event("evt_3", "charge.succeeded", {"id": "ch_1", "object": "charge"}),
    ]


def state(sponsorship):
    sponsorship.refresh_from_db()
    return (
        sponsorship.status,
        sponsorship.paid_at,
        sponsorship.payments.count(),
        sponsorship.ends_on,
    )


def test_webhook_signature_is_verified(post_event, application):
    sponsorship, _ = application
    response = post_event(journey_events(sponsorship)[1], secret="whsec_wrong")
    assert response.status_code == 400
    assert Sponsorship.objects.get().paid_at is None


def test_webhooks_replayed_twice_and_in_reverse_order_leave_the_same_state(post_event, application):
    sponsorship, staff = application
    events = journey_events(sponsorship)
    outcomes = [post_event(e).content.decode().strip() for e in events]
    assert outcomes == ["ignored", "processed", "ignored"]
    lifecycle.approve(sponsorship, staff)
    after_journey = state(sponsorship)
    for e in events + list(reversed(events)):
        assert post_event(e).content.decode().strip() == "duplicate"
    assert state(sponsorship) == after_journey

    # The same journey delivered in reverse order to a fresh application ends the same way.
    other, _ = applications.apply(OrganisationFactory(), sponsorship.tier, "card_once", None), None
    reversed_events = [dict(e, id=e["id"] + "b") for e in reversed(journey_events(other))]
    for e in reversed_events:
        e["data"]["object"] = dict(e["data"]["object"], id=e["data"]["object"]["id"] + "b")
        post_event(e)
    lifecycle.approve(other, staff)
    assert state(other)[0] == after_journey[0] == S.ACTIVE
    assert state(other)[2] == after_journey[2] == 1


def test_subscription_deleted_before_payment_cancels(post_event, application):
    sponsorship, _ = application
    sponsorship.stripe_subscription_id = "sub_9"
    sponsorship.save()
    post_event(
        event("evt_9", "customer.subscription.deleted", {"id": "sub_9", "object": "subscription"})
    )
    assert Sponsorship.objects.get().status == S.CANCELLED


# The stateful fake --------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["card_annual", "card_once"])
def test_card_payment_against_the_stripe_fake(fake_stripe, method):
    organisation = OrganisationFactory()
    sponsorship = applications.apply(organisation, TierFactory(), method, None)
    assert pay_by_card(sponsorship).status == "succeeded"
    sponsorship.refresh_from_db()
    organisation.refresh_from_db()
    assert organisation.stripe_customer_id.startswith("cus_")
    if method == "card_annual":
        subscription = gateway.client().v1.subscriptions.retrieve(
            sponsorship.stripe_subscription_id
        )
        assert subscription.status == "active"
        assert subscription.metadata["sponsorship"] == str(sponsorship.pk)
    else:
        intent = gateway.client().v1.payment_intents.retrieve(sponsorship.stripe_payment_intent_id)
        assert (intent.status, intent.amount) == ("succeeded", 5000000)


def test_invoice_is_sent_on_approval_and_its_payment_activates(
    monkeypatch, post_event, django_capture_on_commit_callbacks
):
    # localstripe cannot send invoices, so the Stripe network is replaced at the gateway seam.
    sent = []
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_inv")
    monkeypatch.setattr(
        stripe_gateway, "send_invoice", lambda *args: sent.append(args) or issued("in_42")
    )
    organisation = OrganisationFactory()
    sponsorship = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    assert [args[:5] for args in sent] == [
        (
            "cus_inv",
            Decimal("50000.00"),
            "EUR",
            sponsorship.pk,
            "Gold sponsor, one year from the day the fee is paid",
        )
    ]
    assert Sponsorship.objects.get().status == S.AWAITING_PAYMENT
    post_event(
        event(
            "evt_inv",
            "invoice.paid",
            {
                "id": "in_42",
                "object": "invoice",
                "amount_paid": 5000000,
                "currency": "eur",
                "created": 1767225600,
                "metadata": {"sponsorship": str(sponsorship.pk)},
            },
        )
    )
    assert Sponsorship.objects.get().status == S.ACTIVE


def test_a_renewal_payment_extends_an_active_sponsorship(application):
    sponsorship, staff = application
    paid(sponsorship, "in_first")
    lifecycle.approve(sponsorship, staff)
    first_end = Sponsorship.objects.get().ends_on
    paid(sponsorship, "in_renewal")
    paid(sponsorship, "in_renewal")  # replayed
    # the next term follows the paid one: from the day after its end, for a year
    assert (
        Sponsorship.objects.get().ends_on
        == Term.one_year_from(first_end + timedelta(days=1)).ends_on
    )
