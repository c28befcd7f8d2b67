"""Issue 35 item 2: raw reports are partitioned by month on PostgreSQL; the coming months'
partitions are made ahead of time, and retention drops whole months."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from feedback import partitions, tasks
from feedback.ingest import build_raw_report, store_report, store_reports
from feedback.models import RawReport, Report
from feedback.services import processing
from tests.feedback.captures import plugin_body

UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="
BOUNDARY = "--------------------------ba4f3696b39f"


def short(marker: str) -> bytes:
    return f"FEEDBACK_SERVER_UID\t{UID}\x00\nFEEDBACK_WHEN\tstartup\nX_MARK\t{marker}\n\n".encode()


def stored_on(moment: datetime, marker: str) -> RawReport:
    raw = build_raw_report(short(marker), path="/rest/v1/post", is_test=False)
    raw.received_at = moment
    return raw


def partition_exists(month) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [partitions.partition_name(month)])
        return cursor.fetchone()[0]


def drop_partition(month):
    with connection.cursor() as cursor:
        cursor.execute(f'DROP TABLE "{partitions.partition_name(month)}"')


@pytest.mark.django_db
def test_the_raw_reports_table_is_partitioned_by_month():
    assert partitions.is_partitioned(connection)
    this_month = partitions.month_of(datetime.now(UTC))
    assert partition_exists(this_month)


@pytest.mark.django_db
def test_the_daily_task_makes_the_coming_months_partitions_ahead(settings):
    settings.FEEDBACK_PARTITIONS_AHEAD = 3
    coming = partitions.months_from(datetime.now(UTC), 4)
    for month in coming[1:]:
        drop_partition(month)  # as if the table had been made long ago
    assert not partition_exists(coming[-1])

    result = tasks.prepare_partitions()

    assert result["created"] == [month.isoformat() for month in coming[1:]]
    assert all(partition_exists(month) for month in coming)
    # a report dated in the last of them is stored in its own month's table
    moment = datetime.combine(coming[-1], datetime.min.time(), tzinfo=UTC)
    (raw,) = store_reports([stored_on(moment, "ahead")])
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT count(*) FROM "{partitions.partition_name(coming[-1])}" WHERE id = %s',  # noqa: S608
            [raw.pk],
        )
        assert cursor.fetchone()[0] == 1
    assert tasks.prepare_partitions()["created"] == []  # nothing twice


@pytest.mark.django_db
def test_retention_drops_whole_months_and_keeps_a_month_with_pending_reports():
    old = datetime(2025, 3, 10, tzinfo=UTC)
    older_pending = datetime(2025, 4, 10, tzinfo=UTC)
    recent = datetime.now(UTC)
    kept_raws = store_reports([stored_on(recent, "recent")])
    old_raws = store_reports([stored_on(old, f"old-{n}") for n in range(3)])
    processing.process_all_pending()
    pending = store_reports([stored_on(older_pending, "pending")])
    assert Report.objects.count() == 4

    call_command("prune_feedback_reports", "--days", "90")

    assert not partition_exists(partitions.month_of(old))  # the month went whole
    assert partition_exists(partitions.month_of(older_pending))  # not yet processed
    assert set(RawReport.objects.values_list("pk", flat=True)) == {
        kept_raws[0].pk,
        pending[0].pk,
    }
    assert Report.objects.count() == 4  # the parsed rows stay
    assert Report.objects.filter(raw_id__in=[raw.pk for raw in old_raws]).count() == 3
    assert bytes(RawReport.objects.get(pk=pending[0].pk).body)


@pytest.mark.django_db(transaction=True)
def test_a_report_in_a_month_with_no_partition_is_still_stored():
    """Should the daily task not have run, the endpoint makes the month it needs."""
    this_month = partitions.month_of(datetime.now(UTC))
    drop_partition(this_month)
    response = Client().generic(
        "POST",
        "/rest/v1/post",
        plugin_body(short("no-partition")),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
    assert response.status_code == 200
    assert partition_exists(this_month)
    assert RawReport.objects.count() == 1


def month_end(month: date) -> datetime:
    return datetime.combine(partitions.next_month(month), time.min, tzinfo=UTC)


@pytest.mark.django_db
def test_partitions_and_retention_walked_over_24_months(settings):
    """Issue 57 item 2: two years of days, the clock moved month by month from this month.
    On the first and the last day of each month the daily tasks run (on some days they do
    not, and the month's partition is missing), a server's report is stored through the
    endpoint's path inside a transaction, and: the month and the coming ones have their
    partitions; a report is never refused for its date; retention drops a month only whole,
    once all of it is older than the retention age, and the parsed rows stay."""
    settings.FEEDBACK_PARTITIONS_AHEAD = 3
    settings.FEEDBACK_RAW_RETENTION_DAYS = 90
    retention = timedelta(days=90)
    months = partitions.months_from(timezone.now(), 24)
    stored: dict[tuple[date, str], list[int]] = {}  # (month, how) -> raw reports
    with time_machine.travel(
        datetime.combine(months[0], time(0, 0, 5), tzinfo=UTC), tick=False
    ) as clock:
        for number, month in enumerate(months):
            last_day = partitions.next_month(month) - timedelta(days=1)
            for day, moment in ((month, time(0, 0, 5)), (last_day, time(23, 59, 50))):
                clock.move_to(datetime.combine(day, moment, tzinfo=UTC))
                now = timezone.now()
                if number % 5 == 3 and day == month:
                    # the daily task did not run, and the month it should have made is gone
                    if partition_exists(month):
                        drop_partition(month)
                else:
                    tasks.prepare_partitions()
                    tasks.prune_raw_reports()
                    ahead = partitions.months_from(now, 1 + settings.FEEDBACK_PARTITIONS_AHEAD)
                    assert all(partition_exists(m) for m in ahead), (now, ahead)
                raw = store_report(
                    build_raw_report(short(f"{now:%Y-%m-%d}"), path="/rest/v1/post", is_test=False)
                )
                assert raw.pk and raw.received_at == now
                stored.setdefault((month, "endpoint"), []).append(raw.pk)
                processing.process_all_pending()
                if number == 12 and day == month:
                    # an import of a report from a month retention already dropped
                    old = months[2]
                    (late,) = store_reports(
                        [stored_on(month_end(old) - timedelta(hours=1), "late")]
                    )
                    stored[(old, "import")] = [late.pk]
                    assert partition_exists(old)
                    processing.process_all_pending()
                cutoff = now - retention
                kept = set(RawReport.objects.values_list("pk", flat=True))
                for (seen, _how), pks in stored.items():
                    left = set(pks) & kept
                    assert left in (set(), set(pks)), (now, seen)  # a month goes whole
                    if month_end(seen) > cutoff:  # not wholly older than the age: kept
                        assert left == set(pks), (now, seen)
                        assert partition_exists(seen)
            # the month's reports were all parsed; their rows stay when raw bytes go
            total = sum(len(pks) for pks in stored.values())
            assert Report.objects.count() == total
    # over the two years, every month that ended more than the retention age before the
    # last run of the daily tasks went, and the last months stayed
    last_run = datetime.combine(last_day, time(23, 59, 50), tzinfo=UTC)
    for month in months:
        assert partition_exists(month) == (month_end(month) > last_run - retention), month
