"""The outbox: a side effect written with the change that causes it, retried with a
growing delay until it is done, shown to staff when it is stuck, sent again on their
word; carried out under a lease, with no transaction open, by as many sweeps as there
are batches."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.utils import timezone
from pytest_django.asserts import assertContains

from core.transitions import TransitionRefused
from foundation import mail as foundation_mail
from foundation.models import ContactMessage
from outbox import delivery, queue, registry
from outbox.models import OutboxItem
from sponsors import mail, stripe_gateway, stripe_tasks
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import issued

pytestmark = pytest.mark.django_db
S = OutboxItem.Status


@pytest.fixture
def invoice_owed(settings, django_capture_on_commit_callbacks):
    """An approved invoice sponsorship whose invoice Stripe keeps failing to send."""
    settings.OUTBOX_MAX_ATTEMPTS = 3
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.INVOICE, None
    )
    with django_capture_on_commit_callbacks(execute=False):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    return OutboxItem.objects.get(kind=stripe_tasks.SEND_INVOICE)


def failing_stripe(monkeypatch, calls):
    def refuse(*args):
        calls.append(args)
        raise stripe_gateway.StripeError("Stripe is down")

    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_1")
    monkeypatch.setattr(stripe_gateway, "send_invoice", refuse)


def test_the_side_effect_is_written_in_the_transaction_that_causes_it(
    django_capture_on_commit_callbacks,
):
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.INVOICE, None
    )
    OutboxItem.objects.all().delete()  # the application's own acknowledgement
    with django_capture_on_commit_callbacks(execute=False):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    kinds = sorted(OutboxItem.objects.values_list("kind", flat=True))
    # One mail for the approval (issue 33: it used to be two), and the invoice.
    assert kinds == sorted([mail.STATUS_MAIL, stripe_tasks.SEND_INVOICE])
    # A change that rolls back takes its side effects with it.
    with pytest.raises(TransitionRefused):
        lifecycle.approve(Sponsorship.objects.get(pk=sponsorship.pk), None)
    assert OutboxItem.objects.count() == 2


def test_a_failing_side_effect_is_retried_later_and_later_then_stuck(
    invoice_owed, monkeypatch, settings
):
    calls = []
    failing_stripe(monkeypatch, calls)
    for attempt in range(1, 4):
        before = timezone.now()
        OutboxItem.objects.filter(pk=invoice_owed.pk).update(next_attempt_at=before)
        delivery.sweep()
        after = timezone.now()
        invoice_owed.refresh_from_db()
        assert invoice_owed.attempts == attempt
        assert invoice_owed.last_error == "StripeError: Stripe is down"
        if attempt < 3:  # the next attempt waits 30 s, then 60 s
            wait = timedelta(seconds=settings.OUTBOX_RETRY_BASE_SECONDS * 2 ** (attempt - 1))
            assert before + wait <= invoice_owed.next_attempt_at <= after + wait
    assert invoice_owed.status == S.STUCK
    # Each attempt carried the same idempotency key, so Stripe makes one invoice.
    assert {args[5] for args in calls} == {str(invoice_owed.idempotency_key)}
    # A stuck item is not retried by the sweep any more.
    assert delivery.sweep() == {"done": 0, "pending": 0, "stuck": 0}
    assert len(calls) == 3


def stuck_item(invoice_owed, monkeypatch):
    failing_stripe(monkeypatch, [])
    OutboxItem.objects.filter(pk=invoice_owed.pk).update(attempts=2)
    delivery.sweep()
    invoice_owed.refresh_from_db()
    assert invoice_owed.status == S.STUCK
    return invoice_owed


def staff_with(client, *codenames):
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client.force_login(staff)


def test_staff_see_stuck_items_and_send_them_again(
    client, invoice_owed, monkeypatch, django_capture_on_commit_callbacks
):
    item = stuck_item(invoice_owed, monkeypatch)
    staff_with(client, "view_outboxitem", "change_outboxitem")
    response = client.get("/admin/outbox/outboxitem/?status__exact=stuck")
    assertContains(response, "StripeError: Stripe is down")
    assertContains(
        response, '<option value="retry">Retry the selected stuck items</option>', html=True
    )

    sent = []
    monkeypatch.setattr(
        stripe_gateway, "send_invoice", lambda *args: sent.append(args) or issued("in_9")
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/outbox/outboxitem/", {"action": "retry", "_selected_action": [item.pk]}
        )
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.status, item.attempts) == (S.DONE, 1)
    assert len(sent) == 1


def test_staff_who_may_only_view_cannot_retry(client, invoice_owed, monkeypatch):
    item = stuck_item(invoice_owed, monkeypatch)
    staff_with(client, "view_outboxitem")
    response = client.get("/admin/outbox/outboxitem/")
    assert 'value="retry"' not in response.content.decode()
    client.post("/admin/outbox/outboxitem/", {"action": "retry", "_selected_action": [item.pk]})
    item.refresh_from_db()
    assert item.status == S.STUCK


def test_a_claimed_item_is_leased_and_claimed_again_only_when_the_lease_runs_out(
    invoice_owed, monkeypatch
):
    [first] = delivery.claim(5, invoice_owed.pk)
    assert first.attempts == 1
    assert first.leased_until > timezone.now()
    # Another worker (the sweep, a second deliver task) finds nothing to do meanwhile.
    assert invoice_owed.pk not in [item.pk for item in delivery.claim(5)]
    assert delivery.deliver(invoice_owed.pk) is None

    # The first worker died mid-call: once the lease has run out the item is claimed again.
    OutboxItem.objects.filter(pk=first.pk).update(leased_until=timezone.now() - timedelta(1))
    [second] = delivery.claim(5)
    assert (second.pk, second.attempts) == (first.pk, 2)

    sent = []
    monkeypatch.setattr(stripe_gateway, "create_customer", lambda organisation: "cus_1")
    monkeypatch.setattr(
        stripe_gateway, "send_invoice", lambda *args: sent.append(args) or issued("in_1")
    )
    # A late outcome of the first worker is not recorded over the second's lease.
    assert delivery.carry_out(first) is None
    assert OutboxItem.objects.get(pk=first.pk).status == S.PENDING
    assert delivery.carry_out(second) == S.DONE
    item = OutboxItem.objects.get(pk=first.pk)
    assert (item.status, item.leased_until) == (S.DONE, None)
    # Both calls carried the item's idempotency key: Stripe made one invoice.
    assert {args[5] for args in sent} == {str(invoice_owed.idempotency_key)}


def test_a_full_batch_hands_the_rest_of_the_backlog_to_another_sweep(
    settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.OUTBOX_SWEEP_BATCH = 2
    settings.STAFF_NOTIFICATION_EMAILS = ["board@example.org"]
    with django_capture_on_commit_callbacks(execute=False):  # the deliveries are lost
        for number in range(5):
            message = ContactMessage.objects.create(
                name=f"Visitor {number}", email="v@example.org", message=f"Message {number}"
            )
            queue.enqueue(foundation_mail.CONTACT_MESSAGE, message_id=message.pk)
    assert OutboxItem.objects.claimable().count() == 5

    # This sweep delivers its own two; the three others go to further sweep tasks (run
    # at once here, as tasks run in tests; on other workers in production).
    assert delivery.sweep() == {"done": 2, "pending": 0, "stuck": 0}
    assert sorted(message.reply_to[0] for message in mailoutbox) == [
        f"Visitor {number} <v@example.org>" for number in range(5)
    ]
    assert not OutboxItem.objects.claimable().exists()


@pytest.mark.django_db(transaction=True)
def test_a_side_effect_runs_with_no_transaction_open(monkeypatch):
    seen = []

    def probe(**payload):
        seen.append((payload, connection.in_atomic_block))

    monkeypatch.setitem(registry._registry, "tests.probe", registry.SideEffect(probe, keyed=False))
    item = OutboxItem.objects.create(kind="tests.probe", payload={"n": 1})
    assert delivery.deliver(item.pk) == S.DONE
    # Nothing holds the item's row (or any other) while the side effect runs.
    assert seen == [({"n": 1}, False)]
