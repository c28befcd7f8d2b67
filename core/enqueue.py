"""The Celery task class of the project: an enqueue that fails is logged, not raised,
and a broker that failed is not asked again for a while.

Tasks are enqueued after a commit (``transaction.on_commit``), when the request's
work is already saved. If the broker (Redis) is down at that moment, raising would
turn a saved contact message or feedback report into a 500 for the visitor. Instead
the failure is logged, and nothing that must happen depends on the enqueue: side
effects that must follow a commit (mails, Stripe calls, announcements, reminders) are
rows of the transactional outbox (the ``outbox`` app) that a beat sweep delivers until
done, and pending feedback reports are processed every minute by beat.

A frozen Redis (stopped with SIGSTOP, or a host that stopped answering) accepts the
connection and never answers: each publish waits ``CELERY_BROKER_TIMEOUT`` (the broker's
socket timeouts, config/settings.py) and is not retried. After a failure the breaker
skips publishing in this process for ``CELERY_BROKER_BREAKER_SECONDS``, so a frozen
broker costs one request one timeout per interval instead of every request a timeout; so
does the cache's breaker for the same Redis (``core.cache.known_down``): a request whose
cache call just timed out does not wait for the broker as well.
The log says so once per interval, and once when the broker is back, not once per task.
"""

import logging
import threading
import time
from typing import Any

from celery import Task
from celery.result import AsyncResult
from django.conf import settings
from kombu.exceptions import OperationalError

from core.cache import known_down

logger = logging.getLogger(__name__)


class BrokerBreaker:
    """Open (publishing skipped) for CELERY_BROKER_BREAKER_SECONDS after a failure."""

    def __init__(self) -> None:
        self.open_until = 0.0
        self.down_since: float | None = None
        self.lock = threading.Lock()

    def is_open(self) -> bool:
        return time.monotonic() < self.open_until

    def failed(self) -> None:
        with self.lock:
            now = time.monotonic()
            self.open_until = now + settings.CELERY_BROKER_BREAKER_SECONDS
            if self.down_since is None:
                self.down_since = now

    def succeeded(self) -> None:
        if self.down_since is None:  # the usual case: nothing to say, no lock taken
            return
        with self.lock:
            if self.down_since is None:
                return
            seconds, self.down_since = time.monotonic() - self.down_since, None
        logger.warning("broker available again after %.1f s", seconds)


BROKER_BREAKER = BrokerBreaker()


class LoggedEnqueueTask(Task):  # type: ignore[type-arg]  # for any task's arguments
    def apply_async(self, *args: Any, **kwargs: Any) -> AsyncResult[Any] | None:  # type: ignore[override]  # None: not enqueued
        if BROKER_BREAKER.is_open():
            logger.debug("task %s not enqueued: the broker failed moments ago", self.name)
            return None
        if known_down(self.app.conf.broker_url or ""):
            self._not_enqueued("the cache found this Redis unreachable moments ago")
            return None
        try:
            result: AsyncResult[Any] = super().apply_async(*args, **kwargs)
        except OperationalError as error:
            self._not_enqueued(error)
            return None
        BROKER_BREAKER.succeeded()
        return result

    def _not_enqueued(self, reason: str | Exception) -> None:
        BROKER_BREAKER.failed()
        logger.warning(
            "task %s not enqueued, broker unavailable: %s (not asked again for %s s)",
            self.name,
            reason,
            settings.CELERY_BROKER_BREAKER_SECONDS,
        )
