"""The outbox: a side effect written with the change that causes it, retried with a
growing delay until it is done, shown to staff when it is stuck, sent again on their
word; and no test Stripe in production."""

import subprocess
import sys
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from pytest_django.asserts import assertContains

from payments import outbox
from payments.models import OutboxItem
from sponsors import mail, stripe_gateway, stripe_tasks
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle, transitions
from tests.core.test_settings import PRODUCTION_ENV, ROOT, clean_env
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

    monkeypatch.setattr(stripe_gateway, "ensure_customer", lambda organisation: "cus_1")
    monkeypatch.setattr(stripe_gateway, "send_invoice", refuse)


def test_the_side_effect_is_written_in_the_transaction_that_causes_it(
    django_capture_on_commit_callbacks,
):
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.INVOICE, None
    )
    with django_capture_on_commit_callbacks(execute=False):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    kinds = sorted(OutboxItem.objects.values_list("kind", flat=True))
    # One mail for the approval (issue 33: it used to be two), and the invoice.
    assert kinds == sorted([mail.STATUS_MAIL, stripe_tasks.SEND_INVOICE])
    # A change that rolls back takes its side effects with it.
    with pytest.raises(transitions.InvalidTransition):
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
        outbox.sweep()
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
    assert outbox.sweep() == {"done": 0, "pending": 0, "stuck": 0}
    assert len(calls) == 3


def stuck_item(invoice_owed, monkeypatch):
    failing_stripe(monkeypatch, [])
    OutboxItem.objects.filter(pk=invoice_owed.pk).update(attempts=2)
    outbox.sweep()
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
    response = client.get("/admin/payments/outboxitem/?status__exact=stuck")
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
            "/admin/payments/outboxitem/", {"action": "retry", "_selected_action": [item.pk]}
        )
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.status, item.attempts) == (S.DONE, 1)
    assert len(sent) == 1


def test_staff_who_may_only_view_cannot_retry(client, invoice_owed, monkeypatch):
    item = stuck_item(invoice_owed, monkeypatch)
    staff_with(client, "view_outboxitem")
    response = client.get("/admin/payments/outboxitem/")
    assert 'value="retry"' not in response.content.decode()
    client.post("/admin/payments/outboxitem/", {"action": "retry", "_selected_action": [item.pk]})
    item.refresh_from_db()
    assert item.status == S.STUCK


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"STRIPE_SECRET_KEY": "sk_test_local"}, "STRIPE_SECRET_KEY is a Stripe test key"),
        ({"STRIPE_API_BASE": "http://127.0.0.1:8420"}, "payments.E002"),
    ],
    ids=["test-key", "fake-stripe-and-test-card-form"],
)
def test_check_deploy_refuses_test_stripe_in_production(extra, message):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "ERROR"],
        cwd=ROOT,
        env={**clean_env(), **PRODUCTION_ENV, **extra},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
