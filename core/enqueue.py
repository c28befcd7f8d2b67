"""The Celery task class of the project: an enqueue that fails is logged, not raised.

Tasks are enqueued after a commit (``transaction.on_commit``), when the request's
work is already saved. If the broker (Redis) is down at that moment, raising would
turn a saved contact message or feedback report into a 500 for the visitor. Instead
the failure is logged. Side effects recorded in the transactional outbox (the Stripe
calls and mails of sponsorships and donations) are delivered by its beat sweep until
done, and pending feedback reports are processed every minute by beat; a task enqueued
directly (a mail to staff about a contact message, release announcements, benefit
reminders) is not sent again.
"""

import logging

from celery import Task
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


class LoggedEnqueueTask(Task):
    def apply_async(self, *args, **kwargs):
        try:
            return super().apply_async(*args, **kwargs)
        except OperationalError as error:
            logger.warning("task %s not enqueued, broker unavailable: %s", self.name, error)
            return None
