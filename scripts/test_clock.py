"""The one clock of the test suite: ``TEST_TODAY=YYYY-MM-DD make test`` runs it as if that
day were today.

``env DAY`` prints the environment that moves every process of the run to DAY: the pytest
workers, what they start (live servers, gunicorn, Celery, ``make run``'s whole stack with
its embedded PostgreSQL and localstripe) and the browser, whose pages read the same clock.
libfaketime (Debian's ``faketime``) shifts the wall clock by one offset, so the run starts
at 09:00 UTC on DAY and goes on ticking: a run of under an hour never crosses midnight, and
every process agrees on the time. Monotonic clocks move by the same offset (libfaketime
0.9.10 answers EINVAL to an absolute sleep on a monotonic clock it does not fake, so
``FAKETIME_DONT_FAKE_MONOTONIC`` would break every ``time.sleep``); intervals stay real.
The shared PostgreSQL and Redis on this machine keep the real time; no code reads the
database's clock (its rows get their times from Python).

``draw`` prints the day ``.ci/run`` runs the suite on: one between today and two years
ahead, half the time a hard one (the last day of a month, of a quarter or of a year, or
29 February), the other half any day.

Standard library only: it runs before the virtualenv exists.
"""

import calendar
import random
import sys
from datetime import UTC, date, datetime, time, timedelta

LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
START_OF_RUN = time(9, 0)
HORIZON_DAYS = 2 * 366


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise SystemExit(f"TEST_TODAY must be a day as YYYY-MM-DD, not {text!r}") from None


def offset_seconds(day: date, now: datetime) -> int:
    """Seconds to add to ``now`` so that the clock reads 09:00 UTC on ``day``."""
    target = datetime.combine(day, START_OF_RUN, tzinfo=UTC)
    return round((target - now).total_seconds())


def environment(day: date, now: datetime) -> dict[str, str]:
    offset = offset_seconds(day, now)
    return {
        "TEST_TODAY": day.isoformat(),
        "LD_PRELOAD": LIBFAKETIME,
        "FAKETIME": f"{offset:+d}s",
    }


def hard_days(first: date, last: date) -> list[date]:
    """Month, quarter and year ends, and 29 February, between ``first`` and ``last``."""
    days = []
    year, month = first.year, first.month
    while date(year, month, 1) <= last:
        end = date(year, month, calendar.monthrange(year, month)[1])
        if first <= end <= last:
            days.append(end)
        if month == 2 and calendar.isleap(year) and first <= date(year, 2, 29) <= last:
            days.append(date(year, 2, 29))  # already the month's end; weighted twice
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    # A quarter's end and a year's end count again, so that they come up more often.
    days += [day for day in list(days) if day.month in (3, 6, 9, 12)]
    days += [day for day in list(days) if day.month == 12 and day.day == 31]
    return days


def draw(today: date, rng: random.Random) -> date:
    last = today + timedelta(days=HORIZON_DAYS)
    if rng.random() < 0.5:
        return rng.choice(hard_days(today, last))
    return today + timedelta(days=rng.randrange(HORIZON_DAYS + 1))


def main(argv: list[str]) -> None:
    command = argv[1] if len(argv) > 1 else ""
    if command == "env" and len(argv) == 3:
        now = datetime.now(UTC)
        print(
            " ".join(
                f"{name}={value}" for name, value in environment(parse_day(argv[2]), now).items()
            )
        )
    elif command == "draw":
        print(draw(datetime.now(UTC).date(), random.SystemRandom()).isoformat())
    else:
        raise SystemExit("usage: test_clock.py env YYYY-MM-DD | draw")


if __name__ == "__main__":
    main(sys.argv)
