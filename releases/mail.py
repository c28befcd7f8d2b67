"""The releases app's mail to announcement subscribers; texts are in templates/releases/email/.

Services record each mail in the outbox (``outbox.queue``), which calls these functions
after the commit and again until the mail server accepts it."""

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from core.mail import send_templated_mail
from outbox import queue
from releases.models import AnnouncementSubscriber, Release, ReleaseFile
from releases.subscriptions import confirm_token, unsubscribe_token

# The outbox kinds of these mails (registered in ReleasesConfig.ready()).
SUBSCRIPTION_CONFIRMATION = "releases.subscription_confirmation"
RELEASE_ANNOUNCEMENTS = "releases.announce_release"
RELEASE_ANNOUNCEMENT = "releases.release_announcement"


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _unsubscribe_url(subscriber) -> str:
    return _site_url(reverse("releases:unsubscribe", args=[unsubscribe_token(subscriber)]))


def mail_subscription_confirmation(subscriber_id: int):
    subscriber = AnnouncementSubscriber.objects.filter(pk=subscriber_id).first()
    if subscriber is None or subscriber.confirmed_at is not None:
        return
    confirm_url = _site_url(
        reverse("releases:subscription-confirm", args=[confirm_token(subscriber)])
    )
    send_templated_mail(
        "releases/email/subscription_confirm",
        {"confirm_url": confirm_url, "download_url": _site_url(reverse("releases:download"))},
        [subscriber.email],
    )


def announce_release(release_id: int) -> int:
    """Queue the announcement of a published release to every confirmed subscriber, once
    per release: the release is marked as mailed in the same transaction that records one
    outbox item per subscriber, and a release already marked is not mailed again. Returns
    how many were queued."""
    with transaction.atomic():
        claimed = Release.objects.filter(
            pk=release_id, is_published=True, mailed_at__isnull=True
        ).update(mailed_at=timezone.now())
        if not claimed:
            return 0
        ids = list(AnnouncementSubscriber.objects.confirmed().values_list("pk", flat=True))
        for subscriber_id in ids:
            queue.enqueue(RELEASE_ANNOUNCEMENT, release_id=release_id, subscriber_id=subscriber_id)
    return len(ids)


def mail_release_announcement(release_id: int, subscriber_id: int):
    """One subscriber's announcement, retried on its own when the mail server is down."""
    subscriber = AnnouncementSubscriber.objects.confirmed().filter(pk=subscriber_id).first()
    if subscriber is None:  # unsubscribed in the meantime
        return
    release = Release.objects.select_related("announcement", "series").get(pk=release_id)
    source = release.files.filter(
        package_type=ReleaseFile.PackageType.SOURCE_TAR, sha256__gt=""
    ).first()
    context = {
        "release": release,
        "title": release.announcement.title
        if release.announcement
        else f"MariaDB {release.version} released",
        "release_url": _site_url(release.get_absolute_url()),
        # Only a post the public can read: never a link to a page that is not there yet.
        "news_url": _site_url(release.announcement.get_absolute_url())
        if release.announcement and release.announcement.is_live
        else "",
        "source": source,
        "unsubscribe_url": _unsubscribe_url(subscriber),
    }
    # RFC 8058: mail programs offer their own unsubscribe button, which posts to the link.
    headers = {
        "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    send_templated_mail(
        "releases/email/release_announcement", context, [subscriber.email], headers=headers
    )
