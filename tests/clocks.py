"""A clock a test moves by hand, instead of sleeping until the real one has moved.

Swap it in for the ``time`` module a piece of code reads
(``monkeypatch.setattr(module, "time", ManualClock())``). Its ``monotonic()`` stands
still until the test calls ``advance(seconds)``, so a slow machine cannot make an
interval pass early; ``time()`` and ``time_ns()`` are the real clock plus the time
advanced (they name things, such as a cache generation, that must stay unique); anything
else the module uses from ``time`` is the real thing.
"""

import os
import time

# What scripts/test_clock.py sets to move a run's processes to TEST_TODAY.
_MOVED_CLOCK = ("LD_PRELOAD", "FAKETIME")


def real_clock_env() -> dict[str, str]:
    """This process's environment without the moved clock of ``TEST_TODAY``, for a server
    that has no use for the day and cannot start under libfaketime: redis-server's
    allocator (jemalloc) reads the clock while libfaketime is still being set up."""
    return {name: value for name, value in os.environ.items() if name not in _MOVED_CLOCK}


class ManualClock:
    def __init__(self):
        self.offset = 0.0
        self._monotonic_start = time.monotonic()

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def monotonic(self) -> float:
        return self._monotonic_start + self.offset

    def time(self) -> float:
        return time.time() + self.offset

    def time_ns(self) -> int:
        return time.time_ns() + int(self.offset * 1e9)

    def __getattr__(self, name):
        return getattr(time, name)
