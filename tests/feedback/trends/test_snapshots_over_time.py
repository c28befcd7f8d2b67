"""Issue 57: usage trends through month and year ends, snapshots one per month, walked
with the clock moved (time_machine) over the next leap year, so that 29 February, two year
ends and every month end come by whatever day the suite runs on."""

import calendar
from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.utils import timezone

from feedback.trends import tasks
from feedback.trends.models import Snapshot
from feedback.trends.periods import period_end
from tests.feedback.factories import ReportFactory

pytestmark = pytest.mark.django_db


def next_leap_year(after: date) -> int:
    year = after.year + 1
    while not calendar.isleap(year):
        year += 1
    return year


def month_after(month: date) -> date:
    return period_end("month", month)


def test_one_snapshot_per_month_across_year_ends_and_29_february():
    leap = next_leap_year(timezone.localdate())
    first = date(leap - 1, 11, 1)  # November before the leap year to January after it
    months = [first]
    while months[-1] < date(leap + 1, 1, 1):
        months.append(month_after(months[-1]))
    servers: dict[date, int] = {}
    published: dict[date, str] = {}  # month -> its SHA-256 when first published
    with time_machine.travel(datetime.combine(first, time(0, 30), tzinfo=UTC), tick=False) as clock:
        for month in months:
            last = month_after(month) - timedelta(days=1)
            days = [month, last]
            if month.month == 2:
                assert last == date(leap, 2, 29)
                days.insert(1, date(leap, 2, 28))
            for day in days:
                for moment in (time(0, 30), time(23, 30)):
                    clock.move_to(datetime.combine(day, moment, tzinfo=UTC))
                    ReportFactory(received_at=timezone.now())  # a server of its own
                    servers[month] = servers.get(month, 0) + 1
                    tasks.update_usage_rollups()  # the beat task: rollups, then snapshots
                    today = timezone.localdate()
                    # a month is published once it has been over for a day, never before,
                    # and once only
                    due = [m for m in months if month_after(m) + timedelta(days=1) <= today]
                    snapshots = list(Snapshot.objects.order_by("month"))
                    assert [s.month for s in snapshots] == due, today
                    for snapshot in snapshots:
                        assert published.setdefault(snapshot.month, snapshot.sha256) == (
                            snapshot.sha256
                        ), "a published month never changes"
    for snapshot in Snapshot.objects.all():
        figures = snapshot.data
        month = snapshot.month
        assert figures["month"] == f"{month:%Y-%m}"
        assert figures["from"] == month.isoformat()
        assert figures["to"] == (month_after(month) - timedelta(days=1)).isoformat()
        assert figures["servers"] == servers[month]  # the reports of its own days only
    february = Snapshot.objects.get(month=date(leap, 2, 1)).data
    assert february["to"] == f"{leap}-02-29" and february["servers"] == 6
    assert {s.month for s in Snapshot.objects.all()} >= {date(leap - 1, 12, 1), date(leap, 12, 1)}
