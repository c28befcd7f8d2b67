#!/usr/bin/env python
"""Feedback at scale: processing throughput and dashboard cost as reports grow.

    .venv/bin/python bench/feedback_scale.py --sizes 1000 10000 100000

Uses its own PostgreSQL database (portal_bench_trends, recreated). For each size N it
adds synthetic full reports shaped like the real capture (feedback/trends/synthetic.py)
until N are stored, spread over 2,000 servers and the last 26 weeks, processes them
with the production code (reports/s), updates the rollups, then renders the dashboard
(/feedback/?period=week) with a cold cache and prints its latency and query count.
"""

import argparse
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB = "portal_bench_trends"
sys.path.insert(0, str(ROOT))


def setup():
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {DB}"],
        check=True,
    )
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DB}"], check=True
    )
    os.environ.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB}",
        DJANGO_SETTINGS_MODULE="config.settings",
        # Processing is measured on its own below: nothing runs when reports are stored.
        CELERY_TASK_ALWAYS_EAGER="false",
        CELERY_BROKER_URL="memory://localhost//",
        LOG_LEVEL="WARNING",
        ALLOWED_HOSTS="testserver",
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def add_reports(count, offset, servers=2000):
    from django.utils import timezone
    from tqdm import tqdm

    from feedback.ingest import build_raw_report, store_reports
    from feedback.trends.synthetic import full_report, real_rows

    rows = real_rows()
    now = timezone.now()
    batch = []
    for index in tqdm(range(offset, offset + count), desc="generate", unit="report", leave=False):
        raw = build_raw_report(
            full_report(index % servers, rows, salt="bench"), path="/rest/v1/post", is_test=False
        )
        raw.received_at = now - timedelta(minutes=(index * 37) % (26 * 7 * 24 * 60))
        batch.append(raw)
        if len(batch) == 2000:
            store_reports(batch)
            batch = []
    if batch:
        store_reports(batch)


def add_processed_rows(count, offset, servers=2000):
    """--direct: Report rows exactly as processing makes them from each server's synthetic report,
    minus the `extra` column (every other row of the report, which no rollup or page reads),
    so that a million rows fit this machine's disk and time."""
    from django.utils import timezone
    from tqdm import tqdm

    from feedback import services
    from feedback.models import Report, Server
    from feedback.parser import parse_report
    from feedback.trends.synthetic import full_report, real_rows

    rows = real_rows()
    now = timezone.now()
    parsed = {n: parse_report(full_report(n, rows, salt="bench")) for n in range(servers)}
    Server.objects.bulk_create(
        [Server(uid=p.server_uid, first_seen=now, last_seen=now) for p in parsed.values()],
        ignore_conflicts=True,
    )
    server_ids = dict(Server.objects.values_list("uid", "id"))
    batch = []
    for index in tqdm(range(offset, offset + count), desc="insert", unit="report", leave=False):
        report = parsed[index % servers]
        row = services.report_row(
            report,
            server=None,
            is_test=False,
            received_at=now - timedelta(minutes=(index * 37) % (26 * 7 * 24 * 60)),
        )
        row.server_id = server_ids[report.server_uid]
        row.extra = {}
        batch.append(row)
        if len(batch) == 5000:
            Report.objects.bulk_create(batch)
            batch = []
    if batch:
        Report.objects.bulk_create(batch)


def measure_dashboard():
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    cache.clear()
    client = Client()
    with connection.execute_wrapper(count):
        started = time.perf_counter()
        response = client.get("/feedback/?period=week")
        cold = time.perf_counter() - started
    assert response.status_code == 200
    started = time.perf_counter()
    client.get("/feedback/?period=week")
    warm = time.perf_counter() - started
    return cold * 1000, warm * 1000, len(executed)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument(
        "--direct",
        action="store_true",
        help="insert processed rows directly (no raw reports, no processing rate)",
    )
    args = parser.parse_args()
    setup()
    from tqdm import tqdm

    from feedback import services
    from feedback.models import Report
    from feedback.trends.rollups import update_rollups

    results = []
    stored = 0
    for size in sorted(args.sizes):
        new = size - stored
        if args.direct:
            add_processed_rows(new, stored)
            processing = float("nan")
        else:
            add_reports(new, stored)
            with tqdm(total=new, desc=f"process to {size}", unit="report") as bar:
                started = time.perf_counter()
                services.process_all_pending(batch_size=1000, progress=bar.update)
                processing = time.perf_counter() - started
        stored = size
        started = time.perf_counter()
        periods = update_rollups()
        rollup_seconds = time.perf_counter() - started
        cold, warm, queries = measure_dashboard()
        results.append(
            (
                size,
                Report.objects.count(),
                new / processing,
                periods,
                rollup_seconds,
                cold,
                warm,
                queries,
            )
        )

    print(f"\n{'reports':>9} {'parsed':>9} {'processed/s':>12} {'periods':>8} {'rollup s':>9} "
          f"{'dashboard cold ms':>18} {'warm ms':>8} {'queries':>8}")  # fmt: skip
    for size, parsed, rate, periods, rollup_seconds, cold, warm, queries in results:
        print(
            f"{size:>9} {parsed:>9} {rate:>12.0f} {periods:>8} {rollup_seconds:>9.1f} {cold:>18.1f} {warm:>8.1f} {queries:>8}"
        )


if __name__ == "__main__":
    main()
