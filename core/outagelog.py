"""One log line when a dependency goes away and one when it is back, never one per request.

During a ten-second PostgreSQL or Redis outage a busy site handles thousands of requests;
a warning for each of them buries the two facts that matter at 3 a.m.: when it started
and when it ended. ``OutageLog`` keeps that state for its process, and counts what failed
meanwhile: the line at the end says how many (``counted``: what one failure is).
"""

import logging
import threading
import time


class OutageLog:
    def __init__(
        self,
        logger: logging.Logger,
        component: str,
        consequence: str,
        counted: str = "failed calls",
    ) -> None:
        self.logger = logger
        self.component = component
        self.consequence = consequence
        self.counted = counted
        self.down_since: float | None = None
        self.failures = 0
        self._lock = threading.Lock()

    @property
    def is_down(self) -> bool:
        return self.down_since is not None

    def down(self, error: BaseException | None = None) -> None:
        with self._lock:
            self.failures += 1
            if self.down_since is not None:  # already said
                return
            self.down_since = time.monotonic()
        cause = f" ({error.__class__.__name__})" if error is not None else ""
        self.logger.warning("%s unavailable%s: %s", self.component, cause, self.consequence)

    def up(self) -> None:
        if self.down_since is None:  # the usual case: nothing to say, no lock taken
            return
        with self._lock:
            if self.down_since is None:
                return
            seconds = time.monotonic() - self.down_since
            failures, self.down_since, self.failures = self.failures, None, 0
        self.logger.warning(
            "%s available again after %.1f s (%d %s meanwhile)",
            self.component,
            seconds,
            failures,
            self.counted,
        )
