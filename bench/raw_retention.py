#!/usr/bin/env python
"""Raw report retention by month: store a million raw reports, then prune, and time both.

    .venv/bin/python bench/raw_retention.py [--count 1000000] [--months 6] [--days 90]
        [--body startup|full] [--db portal_bench_retention]

Uses its own PostgreSQL database (recreated, migrated: the raw reports table partitioned
by month). Stores ``--count`` raw reports (one INSERT ... SELECT per 100,000 rows, each row as
the endpoint stores it), dated evenly over the ``--months`` calendar months before the current
one and stored as already processed (retention never drops a pending report), then runs
``feedback.services.retention.prune_raw_reports(--days)``, which drops every month that ended more
than ``--days`` ago, and prints both times, the months dropped and the rows left.
The body is the real startup report (small) or the real 25 KB full report.
"""

import argparse
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BATCH = 100_000


def setup(db):
    for sql in (f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}"):
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True)
    os.environ.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db}",
        DJANGO_SETTINGS_MODULE="config.settings",
        CELERY_TASK_ALWAYS_EAGER="false",
        CELERY_BROKER_URL="memory://localhost//",
        LOG_LEVEL="WARNING",
        DEBUG="false",
    )
    os.environ["REDIS_URL"] = ""  # no Redis: the local-memory cache
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--months", type=int, default=6)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--body", choices=["startup", "full"], default="startup")
    parser.add_argument("--db", default="portal_bench_retention")
    args = parser.parse_args()
    setup(args.db)

    from django.db import connection

    from feedback import partitions
    from feedback.demo import captured_reports
    from feedback.ingest import build_raw_report
    from feedback.models import RawReport
    from feedback.services import retention

    bodies = {"full" if len(body) > 1000 else "startup": body for body in captured_reports()}
    body = bodies[args.body]
    this_month = partitions.month_of(datetime.now(UTC))
    first = this_month
    for _ in range(args.months):
        first = (first - timedelta(days=1)).replace(day=1)
    start = datetime.combine(first, datetime.min.time(), tzinfo=UTC)
    span = datetime.combine(this_month, datetime.min.time(), tzinfo=UTC) - start
    template = build_raw_report(body, path="/rest/v1/post", is_test=False)
    partitions.create_partitions(connection, [start + span * (n / 100) for n in range(100)])

    began = time.monotonic()
    for offset in range(0, args.count, BATCH):
        size = min(BATCH, args.count - offset)
        with connection.cursor() as cursor:
            # Straight into PostgreSQL (Django's bulk_create costs more here than the
            # database does): the same row the endpoint stores, already processed.
            cursor.execute(
                "INSERT INTO feedback_rawreport (received_at, path, size, sha256, body,"
                " is_test, is_resend, country, status, rejection_reason, processed_at)"
                " SELECT %s + %s * (n::float8 / %s), %s, %s, %s, %s, false, n > 0, '',"
                " 'processed', '', now() FROM generate_series(%s, %s) AS n",
                [
                    start,
                    span,
                    args.count,
                    template.path,
                    template.size,
                    template.sha256,
                    template.body,
                    offset,
                    offset + size - 1,
                ],
            )
    stored_s = time.monotonic() - began
    before = partitions.existing_months(connection)

    began = time.monotonic()
    dropped = retention.prune_raw_reports(args.days)
    prune_s = time.monotonic() - began
    after = partitions.existing_months(connection)
    left = RawReport.objects.count()
    gone = sorted(set(before) - set(after))
    print(
        f"stored {args.count:,} {args.body} reports over {args.months} months in {stored_s:.1f} s "
        f"({args.count / stored_s:,.0f}/s)\n"
        f"pruned (retention {args.days} days) in {prune_s:.2f} s: {len(gone)} month(s) dropped "
        f"({', '.join(f'{m:%Y-%m}' for m in gone)}), {dropped:,} reports; {left:,} left\n"
        f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
