"""The periodic-task scheduler for more than one host: every host may run `celery beat`,
and only the one holding a lock in Redis sends the schedule.

The schedule itself stays in the database (django-celery-beat: Admin → Periodic tasks).
A scheduler that does not hold the lock sends nothing and asks again every few seconds;
the holder renews the lock before each tick, so it lapses ``BEAT_LOCK_SECONDS`` after its
holder stops or loses Redis, and another host takes over. The new holder reads every
task's last run from the database first, so a task its predecessor just sent is not
sent again; and every run is claimed in Redis before it is sent, so no run goes out
twice even if a busy holder's lock lapsed under it. Used whenever Redis is configured (settings.CELERY_BEAT_SCHEDULER); `make
run`, without Redis, runs one plain DatabaseScheduler.
"""

import contextlib
import logging
import secrets
import socket

import redis
from django.conf import settings
from django_celery_beat.schedulers import DatabaseScheduler
from redis.exceptions import LockError, RedisError

logger = logging.getLogger(__name__)

LOCK_KEY = "portal:beat:lock"
# Each run a scheduler sends is claimed first (the task's name and the last run it follows),
# for a day: a run is never sent twice, even by a holder whose claim on the lock lapsed
# while it was busy, or from an entry read before another scheduler's sending was saved.
CLAIM_PREFIX = "portal:beat:sent"
CLAIM_SECONDS = 24 * 3600


class ElectedDatabaseScheduler(DatabaseScheduler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lock_seconds = settings.BEAT_LOCK_SECONDS
        # The holder's name in the lock: which host sends the schedule, for people asking Redis.
        name = f"{socket.gethostname()}:{secrets.token_hex(6)}"
        self.redis = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5
        )
        self.lock = self.redis.lock(LOCK_KEY, timeout=self.lock_seconds, thread_local=False)
        self.lock_name = name
        self.leading = False

    def tick(self, *args, **kwargs):
        if not self.hold_lock():
            return min(self.max_interval, self.lock_seconds / 3)
        # Come back before the lock could lapse, whatever the next task's time.
        return min(super().tick(*args, **kwargs), self.lock_seconds / 3)

    def hold_lock(self) -> bool:
        """True when this scheduler may send: it renewed its lock, or just took it."""
        try:
            if self.leading:
                self.lock.reacquire()
                return True
            if self.lock.acquire(blocking=False, token=self.lock_name):
                self.leading = True
                # Another scheduler may have sent tasks meanwhile: read every task's last
                # run from the database again before deciding what is due.
                self.sync()
                self._schedule = self.all_as_schedule()
                self._last_timestamp = self.Changes.last_change()
                self._heap = None
                logger.info("beat: %s holds the lock and sends the schedule", self.lock_name)
                return True
            return False
        except LockError:
            self.leading = False
            logger.warning("beat: %s lost the lock; another scheduler sends", self.lock_name)
            return False
        except RedisError as error:
            # The broker is Redis too: nothing could be sent now. Keep the claim; the next
            # renewal tells whether it survived.
            logger.warning("beat: Redis unavailable (%s); sending nothing", type(error).__name__)
            return False

    def apply_entry(self, entry, producer=None):
        claim = f"{CLAIM_PREFIX}:{entry.name}:{entry.last_run_at.isoformat()}"
        try:
            claimed = self.redis.set(claim, self.lock_name, nx=True, ex=CLAIM_SECONDS)
        except RedisError as error:
            logger.warning("beat: %s not sent, Redis unavailable (%s)", entry.name, error)
            return
        if not claimed:
            logger.warning("beat: %s was already sent for this run; not again", entry.name)
            return
        super().apply_entry(entry, producer=producer)

    def close(self):
        super().close()
        if self.leading:
            self.leading = False
            with contextlib.suppress(LockError, RedisError):  # else it lapses by itself
                self.lock.release()
