"""Workflows of the foundation app. Other apps publish news through here."""

from datetime import datetime

from django import forms
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from foundation import mail
from foundation.models import (
    Category,
    ContactMessage,
    DocumentComment,
    DocumentVersion,
    NewsComment,
    NewsPost,
)
from outbox import queue


class DiscussionClosed(Exception):
    """Comments are not open on this document version."""


class CommentsDisabled(Exception):
    """This post does not take comments."""


def publish_news_post(
    *,
    slug: str,
    title: str,
    body: str,
    category: str,
    summary: str = "",
    author_name: str = "",
    published_at: datetime | None = None,
) -> NewsPost:
    """Create or update a published news post identified by its slug; it is live when this
    returns.

    Used by the releases app for release announcements; calling it again with
    the same slug updates the post instead of making a second one. ``published_at`` is the
    post's date at the latest: a time still to come is brought forward to now (a release
    published at 07:37 must not link to an announcement that appears at noon), and a post
    that is already live keeps its date.
    """
    now = timezone.now()
    category_obj, _ = Category.objects.get_or_create(
        slug=slugify(category), defaults={"name": category}
    )
    live = NewsPost.objects.published(now).filter(slug=slug).values_list("published_at", flat=True)
    published_at = next(iter(live), None) or min(published_at or now, now)
    post, _ = NewsPost.objects.update_or_create(
        slug=slug,
        defaults={
            "title": title,
            "body": body,
            "summary": summary,
            "author_name": author_name,
            "status": NewsPost.Status.PUBLISHED,
            "published_at": published_at,
        },
    )
    post.categories.add(category_obj)
    return post


def comment_on_document(
    version: DocumentVersion, user: User, body: str, section: str = ""
) -> DocumentComment:
    if not version.discussion_is_open():
        raise DiscussionClosed("The public discussion of this version is closed.")
    return DocumentComment.objects.create(version=version, author=user, body=body, section=section)


def comment_on_post(post: NewsPost, user: User, body: str) -> NewsComment:
    if not post.comments_enabled:
        raise CommentsDisabled("Comments are closed for this post.")
    return NewsComment.objects.create(post=post, author=user, body=body)


@transaction.atomic
def receive_contact_message(form: "forms.ModelForm[ContactMessage]") -> ContactMessage:
    """Store the enquiry and, in the same transaction, the outbox items that mail staff
    and acknowledge it to the sender."""
    message = form.save()
    queue.enqueue(mail.CONTACT_MESSAGE, message_id=message.pk)
    queue.enqueue(mail.CONTACT_ACKNOWLEDGEMENT, message_id=message.pk)
    return message
