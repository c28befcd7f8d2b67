"""Subscriptions to release announcements: subscribing, confirming, unsubscribing."""

from django.db import transaction
from django.utils import timezone

from outbox import queue
from releases import mail
from releases.models import AnnouncementSubscriber
from releases.subscriptions import subscriber_to_confirm, subscriber_to_unsubscribe


@transaction.atomic
def subscribe_to_announcements(email: str) -> None:
    """Ask ``email`` to confirm its subscription; an address already subscribed is kept as
    it is (a confirmed one gets no mail), so the answer never tells who is subscribed."""
    subscriber, _ = AnnouncementSubscriber.objects.get_or_create(email=email.strip().lower())
    if subscriber.confirmed_at is None:
        queue.enqueue(mail.SUBSCRIPTION_CONFIRMATION, subscriber_id=subscriber.pk)


def is_confirmation_link(token: str) -> bool:
    """Whether ``token`` confirms a subscription that still exists (nothing is changed)."""
    subscriber_id = subscriber_to_confirm(token)
    return (
        subscriber_id is not None
        and AnnouncementSubscriber.objects.filter(pk=subscriber_id).exists()
    )


def confirm_subscription(token: str) -> AnnouncementSubscriber | None:
    """The confirmed subscriber, or None when the link was tampered with, has expired or
    its subscription is gone."""
    subscriber_id = subscriber_to_confirm(token)
    subscriber = AnnouncementSubscriber.objects.filter(pk=subscriber_id).first()
    if subscriber is None:  # filter(pk=None) finds nothing
        return None
    if subscriber.confirmed_at is None:
        subscriber.confirmed_at = timezone.now()
        subscriber.save(update_fields=["confirmed_at"])
    return subscriber


def is_unsubscribe_link(token: str) -> bool:
    """Whether ``token`` is an unsubscribe link of this site (its subscriber may be gone)."""
    return subscriber_to_unsubscribe(token) is not None


def unsubscribe(token: str) -> bool:
    """Delete the subscriber the link was made for (already gone: nothing to do). Answers
    whether the link is one of this site's unsubscribe links; if not, nothing changes."""
    subscriber_id = subscriber_to_unsubscribe(token)
    if subscriber_id is None:
        return False
    AnnouncementSubscriber.objects.filter(pk=subscriber_id).delete()
    return True
