"""Stripe unreachable: the sponsor gets a plain message and the invoice instead, nothing
changes before Stripe answers, and calls made after a commit are outbox items, retried.

"Unreachable" is real: the SDK is pointed at a closed port on this machine.
"""

import json

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from outbox import delivery, registry
from outbox.models import OutboxItem
from payments import gateway
from sponsors import stripe_gateway
from sponsors.models import Organisation, Sponsorship, SponsorshipEvent
from sponsors.services import applications, lifecycle
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import issued, price_fields

pytestmark = pytest.mark.django_db
S = Sponsorship.Status
CLOSED_PORT = "http://127.0.0.1:9"


def applied(client, method=Sponsorship.Payment.CARD_ANNUAL):
    organisation = OrganisationFactory(name="Acme & Sons")
    manager = organisation.managers.get()
    client.force_login(manager)
    return applications.apply(organisation, TierFactory(), method, manager)


def assert_plain_outage_answer(response):
    """The pay page's script shows this message and reveals the invoice alternative."""
    assert response.status_code == 503
    answer = json.loads(response.content)
    assert answer["error"].startswith(
        "Our payment provider cannot be reached just now, so nothing was charged."
    )
    assert answer["offer_invoice"] is True
    for leak in ("APIConnectionError", "Connection refused", "127.0.0.1:9", "Traceback", "Errno"):
        assert leak not in response.content.decode(), leak


def assert_nothing_changed(sponsorship):
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.APPLIED
    assert sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL
    assert (sponsorship.stripe_subscription_id, sponsorship.stripe_payment_intent_id) == ("", "")
    assert Organisation.objects.get().stripe_customer_id == ""
    assert SponsorshipEvent.objects.filter(sponsorship=sponsorship).count() == 1  # applied


@pytest.mark.parametrize("stage", ["setup", "pay", "check"])
def test_a_card_payment_with_stripe_unreachable(client, settings, stage):
    settings.STRIPE_API_BASE = CLOSED_PORT
    sponsorship = applied(client)
    if stage == "check":  # a payment made, then Stripe gone
        sponsorship.stripe_subscription_id = "sub_made"
        sponsorship.save()
    response = client.post(
        f"/sponsors/sponsorships/{sponsorship.pk}/pay/card/",
        {"stage": stage, "setup_intent": "seti_1", **price_fields(sponsorship)},
    )
    assert_plain_outage_answer(response)
    if stage != "check":
        assert_nothing_changed(sponsorship)


def test_the_invoice_alternative_is_sent_when_staff_approve(
    client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.STRIPE_API_BASE = CLOSED_PORT
    sponsorship = applied(client)
    response = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay-by-invoice/")
    assert response.status_code == 302
    sponsorship.refresh_from_db()
    assert (sponsorship.status, sponsorship.payment_method) == (S.APPLIED, "invoice")
    assert sponsorship.events.last().note == "payment by invoice instead of card"

    # Stripe is back when staff approve: the invoice goes out (at the gateway seam).
    sent = []
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_inv")
    monkeypatch.setattr(
        stripe_gateway, "send_invoice", lambda *args: sent.append(args) or issued("in_7")
    )
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    assert [args[3] for args in sent] == [sponsorship.pk]
    assert sponsorship.events.last().note == (
        "invoice INV-000001 issued for one year from the day the fee is paid (Stripe in_7)"
    )


def test_switching_to_invoice_after_approval_sends_the_invoice_now(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    sponsorship = applied(client)
    lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    sent = []
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_inv")
    monkeypatch.setattr(
        stripe_gateway, "send_invoice", lambda *args: sent.append(args) or issued("in_8")
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay-by-invoice/")
    assert len(sent) == 1
    sponsorship.refresh_from_db()
    assert (sponsorship.status, sponsorship.payment_method) == (S.AWAITING_PAYMENT, "invoice")


def test_a_paid_sponsorship_cannot_switch_to_invoice(client):
    sponsorship = applied(client)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(paid_at="2026-01-01T00:00Z")
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/pay-by-invoice/")
    sponsorship.refresh_from_db()
    assert sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL


def test_admin_cancel_with_stripe_unreachable_commits_and_retries_the_stripe_call(
    client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.STRIPE_API_BASE = CLOSED_PORT
    sponsorship = applied(client)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(stripe_subscription_id="sub_77")
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_sponsorship", "change_sponsorship"])
    )
    client.force_login(staff)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            "/admin/sponsors/sponsorship/",
            {"action": "cancel", "_selected_action": [sponsorship.pk]},
        )
    assert response.status_code == 302  # answered before Stripe was called
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    cancel = OutboxItem.objects.get(kind=gateway.CANCEL_SUBSCRIPTION)
    assert cancel.payload == {"subscription_id": "sub_77"}

    attempts = []

    def counted(subscription_id, idempotency_key):
        attempts.append((subscription_id, idempotency_key))
        return gateway.cancel_subscription(subscription_id, idempotency_key)

    def cancel_with(function):
        side_effect = registry.SideEffect(function, keyed=True)
        monkeypatch.setitem(registry._registry, gateway.CANCEL_SUBSCRIPTION, side_effect)

    cancel_with(counted)
    # The delivery after the commit meets the unreachable Stripe: the item waits for a retry.
    before = timezone.now()
    for callback in callbacks:
        callback()
    assert attempts == [("sub_77", str(cancel.idempotency_key))]
    cancel.refresh_from_db()
    assert (cancel.status, cancel.attempts) == (OutboxItem.Status.PENDING, 1)
    assert cancel.last_error.startswith("APIConnectionError")
    assert cancel.next_attempt_at >= before + delivery.backoff(1)
    # Stripe is reachable again and the retry is due: the sweep delivers it, same key.
    settings.STRIPE_API_BASE = ""
    cancel_with(
        lambda subscription_id, idempotency_key: attempts.append((subscription_id, idempotency_key))
    )
    OutboxItem.objects.filter(pk=cancel.pk).update(next_attempt_at=before)
    OutboxItem.objects.exclude(pk=cancel.pk).delete()  # the application's acknowledgement
    assert delivery.sweep() == {"done": 1, "pending": 0, "stuck": 0}
    assert attempts[-1] == ("sub_77", str(cancel.idempotency_key))
    cancel.refresh_from_db()
    assert cancel.status == OutboxItem.Status.DONE
