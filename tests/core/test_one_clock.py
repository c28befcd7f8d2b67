"""The suite's one clock (scripts/test_clock.py): ``TEST_TODAY`` moves every process of the
run to that day, and ``.ci/run`` draws the day, weighted to the hard ones."""

import os
import random
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from core.models import DemoContent
from scripts import test_clock


def the_runs_day() -> date:
    """The day this run takes as today: TEST_TODAY, else the real one."""
    moved = os.environ.get("TEST_TODAY")
    return date.fromisoformat(moved) if moved else datetime.now(UTC).date()


def test_the_offset_puts_the_clock_at_nine_on_the_day():
    now = datetime(2026, 12, 7, 16, 45, 7, tzinfo=UTC)
    for day in (date(2027, 12, 31), date(2028, 2, 29), date(2026, 12, 7), date(2026, 1, 1)):
        moved = now + timedelta(seconds=test_clock.offset_seconds(day, now))
        assert moved == datetime.combine(day, test_clock.START_OF_RUN, tzinfo=UTC)


def test_the_environment_names_the_day_and_shifts_by_whole_seconds():
    env = test_clock.environment(date(2028, 2, 29), datetime(2026, 12, 7, 9, 0, tzinfo=UTC))
    assert env["TEST_TODAY"] == "2028-02-29"
    assert env["FAKETIME"] == f"+{(date(2028, 2, 29) - date(2026, 12, 7)).days * 86400}s"
    assert env["LD_PRELOAD"].endswith("libfaketime.so.1")


def test_the_hard_days_are_month_ends_and_the_leap_day_with_quarter_and_year_ends_weighted():
    days = test_clock.hard_days(date(2027, 11, 15), date(2028, 3, 31))
    assert sorted(set(days)) == [
        date(2027, 11, 30),
        date(2027, 12, 31),
        date(2028, 1, 31),
        date(2028, 2, 29),
        date(2028, 3, 31),
    ]
    assert days.count(date(2027, 12, 31)) > days.count(date(2028, 3, 31)) > 1
    assert days.count(date(2028, 2, 29)) == 2
    assert days.count(date(2028, 1, 31)) == 1


@pytest.mark.parametrize("seed", range(50))
def test_a_drawn_day_lies_between_today_and_two_years_ahead(seed):
    today = date(2026, 12, 7)
    day = test_clock.draw(today, random.Random(seed))
    assert today <= day <= today + timedelta(days=test_clock.HORIZON_DAYS)


def test_the_draw_comes_back_to_the_hard_days_often():
    today, rng = date(2026, 12, 7), random.Random(7)
    drawn = [test_clock.draw(today, rng) for _ in range(2000)]
    month_ends = sum((day + timedelta(days=1)).day == 1 for day in drawn)
    assert month_ends > 800  # about half, against 1 in 30 for a day drawn at random
    assert date(2028, 2, 29) in drawn


def test_a_day_that_is_not_a_day_is_refused_with_what_was_given():
    with pytest.raises(SystemExit, match="'2027-02-29'"):
        test_clock.parse_day("2027-02-29")


def test_this_process_a_child_and_django_read_the_runs_day():
    day = the_runs_day()
    assert timezone.localdate() == day
    child = subprocess.run(
        [sys.executable, "-c", "import datetime; print(datetime.date.today())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == day.isoformat()


@pytest.mark.browser
def test_the_browser_reads_the_runs_day(page):
    shown = page.evaluate("new Date().toISOString().slice(0, 10)")
    assert shown == the_runs_day().isoformat()


@pytest.mark.django_db
def test_the_demo_states_the_day_it_is_built_around():
    call_command("load_demo", "--only", "donations.demo", "--day", "2028-02-29", verbosity=0)
    assert DemoContent.current().built_around == date(2028, 2, 29)
    call_command("load_demo", "--only", "donations.demo", verbosity=0)
    assert DemoContent.current().built_around == the_runs_day()
    assert DemoContent.objects.count() == 1
