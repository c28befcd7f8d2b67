"""Nothing committed is forgotten: side effects of every app committed while Redis (the
Celery broker) is down are carried out once Redis is back and the outbox sweep runs.
Real parts: a redis-server each test starts and stops (tests/broker.py), localstripe,
Django's mail outbox."""

from datetime import date

import pytest
from django.utils import timezone

from outbox.models import OutboxItem
from outbox.tasks import sweep_outbox
from payments import gateway
from releases.models import AnnouncementSubscriber, Release
from releases.services import publishing
from sponsors.benefits import services as benefits
from sponsors.benefits.models import Benefit, Delivery
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.donations.factories import GiftFactory
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory
from tests.sponsors.benefits.factories import BenefitFactory
from tests.sponsors.benefits.factories import SponsorshipFactory as BenefitedSponsorshipFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import pay_by_card

pytestmark = pytest.mark.django_db
NOTHING_OWED = {"done": 0, "pending": 0, "stuck": 0}


@pytest.fixture
def while_redis_is_down(broker, django_capture_on_commit_callbacks, caplog):
    """Runs a request or a service with the broker stopped, its commit's callbacks run
    (so the enqueue is tried, and fails), then starts the broker again."""

    def run(action):
        broker.stop()
        with django_capture_on_commit_callbacks(execute=True):
            result = action()
        # The enqueue after the commit failed, and said so.
        assert "not enqueued, broker unavailable" in caplog.text
        broker.start()
        return result

    return run


def test_a_cancellation_committed_while_redis_is_down_reaches_stripe_after_the_sweep(
    fake_stripe, while_redis_is_down
):
    sponsorship = applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.CARD_ANNUAL, None
    )
    assert pay_by_card(sponsorship).status == "succeeded"
    sponsorship.refresh_from_db()
    subscriptions = gateway.client().v1.subscriptions
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "active"

    while_redis_is_down(lambda: lifecycle.cancel(sponsorship, None, "cancelled by the sponsor"))
    sponsorship.refresh_from_db()
    assert sponsorship.status == Sponsorship.Status.CANCELLED
    item = OutboxItem.objects.get(kind=gateway.CANCEL_SUBSCRIPTION)
    assert (item.status, item.attempts) == (OutboxItem.Status.PENDING, 0)
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "active"

    sweep_outbox()  # what beat runs every minute
    item.refresh_from_db()
    assert (item.status, item.attempts) == (OutboxItem.Status.DONE, 1)
    assert subscriptions.retrieve(sponsorship.stripe_subscription_id).status == "canceled"
    # A second sweep finds nothing owed: the cancellation is made once.
    assert sweep_outbox() == NOTHING_OWED


def test_a_contact_message_sent_while_redis_is_down_reaches_staff_after_the_sweep(
    client, settings, mailoutbox, while_redis_is_down
):
    settings.STAFF_NOTIFICATION_EMAILS = ["board@example.org"]
    form = {
        "topic": "sponsorship",
        "name": "Ada",
        "email": "ada@example.org",
        "organisation": "Example Ltd",
        "message": "We would like to sponsor.",
    }
    response = while_redis_is_down(lambda: client.post("/contact/", form))
    assert response.status_code == 302
    assert mailoutbox == []

    assert sweep_outbox() == {"done": 2, "pending": 0, "stuck": 0}
    to_staff, acknowledgement = sorted(
        mailoutbox, key=lambda message: message.to != ["board@example.org"]
    )
    assert to_staff.to == ["board@example.org"]
    assert "We would like to sponsor." in to_staff.body
    assert acknowledgement.to == ["ada@example.org"]
    assert "We would like to sponsor." not in acknowledgement.body  # the sender's text never
    assert sweep_outbox() == NOTHING_OWED


def test_a_subscription_and_a_release_made_while_redis_is_down_are_mailed_after_the_sweep(
    client, mailoutbox, while_redis_is_down
):
    AnnouncementSubscriber.objects.create(email="dba@example.org", confirmed_at=timezone.now())
    series = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    release = ReleaseFactory(
        series=series, version="12.3.4", release_date=date(2026, 11, 20), is_published=False
    )
    ReleaseFileFactory(release=release)

    def subscribe_and_publish():
        client.post("/download/subscribe/", {"email": "ops@example.org"})
        publishing.publish_release(release)

    while_redis_is_down(subscribe_and_publish)
    assert mailoutbox == []
    assert Release.objects.get(pk=release.pk).mailed_at is None

    # The first sweep mails the confirmation and marks the release as mailed, recording
    # one announcement per subscriber; the next sweep mails those.
    assert sweep_outbox() == {"done": 2, "pending": 0, "stuck": 0}
    [confirmation] = mailoutbox
    assert confirmation.to == ["ops@example.org"]
    assert confirmation.subject == "Confirm your MariaDB release announcements"
    assert Release.objects.get(pk=release.pk).mailed_at is not None
    assert sweep_outbox() == {"done": 1, "pending": 0, "stuck": 0}
    announcement = mailoutbox[-1]
    assert announcement.to == ["dba@example.org"]
    assert "12.3.4" in announcement.subject
    assert sweep_outbox() == NOTHING_OWED


def test_benefit_reminders_made_while_redis_is_down_are_mailed_after_the_sweep(
    mailoutbox, while_redis_is_down
):
    sponsorship = BenefitedSponsorshipFactory()
    BenefitFactory(
        tier=sponsorship.tier,
        name="Logo on the supporters page",
        asset=Benefit.Asset.LOGO,
        due_days=14,
    )
    benefits.ensure_all_deliveries()
    reminded = while_redis_is_down(lambda: benefits.send_reminders(today=date(2026, 11, 5)))
    assert reminded == (1, 0)
    assert mailoutbox == []
    # The reminder counts as sent (not again for a week): it must not be lost.
    assert Delivery.objects.get().reminded_on == date(2026, 11, 5)

    assert sweep_outbox() == {"done": 1, "pending": 0, "stuck": 0}
    [reminder] = mailoutbox
    assert "Logo on the supporters page: a logo, due 15 November 2026" in reminder.body
    assert sweep_outbox() == NOTHING_OWED


def test_a_donors_lost_links_asked_for_while_redis_is_down_are_mailed_after_the_sweep(
    client, mailoutbox, while_redis_is_down
):
    GiftFactory(donation__email="ada@example.org")
    while_redis_is_down(lambda: client.post("/donate/manage/", {"email": "ada@example.org"}))
    assert mailoutbox == []

    assert sweep_outbox() == {"done": 1, "pending": 0, "stuck": 0}
    [links] = mailoutbox
    assert links.to == ["ada@example.org"]
    assert "/donate/manage/" in links.body
