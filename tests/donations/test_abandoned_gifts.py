"""Issue 46: a gift whose page was closed during the 3-D Secure prompt stays pending, and
no Stripe event will ever pay it. It counts nowhere public, and the hourly task deletes
it once it is ``DONATION_ABANDONED_AFTER_HOURS`` old; a gift Stripe paid meanwhile, or
one still young, is kept."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from pytest_django.asserts import assertNotContains

from donations import tasks
from donations.models import Donation
from tests.donations.factories import DonationFactory, GiftFactory

pytestmark = pytest.mark.django_db
S = Donation.Status


def started(hours_ago, **fields):
    donation = DonationFactory(**fields)
    when = timezone.now() - timedelta(hours=hours_ago)
    Donation.objects.filter(pk=donation.pk).update(created_at=when)
    return donation


@pytest.mark.parametrize("hours_ago", [24.01, 25, 24 * 30])
def test_a_gift_abandoned_during_3d_secure_is_deleted_after_a_day(hours_ago):
    abandoned = started(hours_ago, frequency="once")
    abandoned_monthly = started(hours_ago, frequency="monthly", stripe_subscription_id="sub_x")
    assert tasks.expire_abandoned_donations() == 2
    assert not Donation.objects.filter(pk__in=[abandoned.pk, abandoned_monthly.pk]).exists()


@pytest.mark.parametrize("hours_ago", [0, 1, 23.9])
def test_a_gift_still_on_its_way_is_kept(hours_ago):
    young = started(hours_ago)
    assert tasks.expire_abandoned_donations() == 0
    assert Donation.objects.filter(pk=young.pk).exists()


@pytest.mark.parametrize(
    "status", [S.PAID, S.ACTIVE, S.PAST_DUE, S.CANCELLED], ids=lambda s: str(s)
)
def test_only_gifts_waiting_for_their_payment_expire(status):
    old = started(48, status=status)
    assert tasks.expire_abandoned_donations() == 0
    assert Donation.objects.filter(pk=old.pk).exists()


def test_a_pending_gift_stripe_has_paid_meanwhile_is_kept():
    """The payment was recorded, the status not yet moved (events in any order)."""
    paid = started(48)
    GiftFactory(donation=paid)
    assert tasks.expire_abandoned_donations() == 0
    assert Donation.objects.filter(pk=paid.pk).exists()


def test_the_setting_says_when(settings):
    settings.DONATION_ABANDONED_AFTER_HOURS = 2
    abandoned = started(3)
    assert tasks.expire_abandoned_donations() == 1
    assert not Donation.objects.filter(pk=abandoned.pk).exists()


def test_the_task_runs_every_hour(beat_schedules):
    schedule = PeriodicTask.objects.get(task="donations.tasks.expire_abandoned_donations")
    assert schedule.enabled
    assert (schedule.interval.every, schedule.interval.period) == (1, "hours")
    assert json.loads(schedule.args or "[]") == []


def test_a_pending_gift_counts_nowhere_public(client):
    started(1, amount=Decimal("9999"), show_on_wall=True, public_name="Pending Penny")
    for page in ("/supporters/", "/funding/", "/"):
        response = client.get(page)
        assert response.status_code == 200
        assertNotContains(response, "Pending Penny")
        assertNotContains(response, "9,999")
    assert list(Donation.objects.on_donor_wall()) == []
