"""The Celery task class of the project: an enqueue that fails is logged, not raised.

Tasks are enqueued after a commit (``transaction.on_commit``), when the request's
work is already saved. If the broker (Redis) is down at that moment, raising would
turn a saved contact message or feedback report into a 500 for the visitor. Instead
the failure is logged, and nothing that must happen depends on the enqueue: side
effects that must follow a commit (mails, Stripe calls, announcements, reminders) are
rows of the transactional outbox (the ``outbox`` app) that a beat sweep delivers until
done, and pending feedback reports are processed every minute by beat.
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
