#!/usr/bin/env python
"""Feedback at scale: processing throughput and dashboard cost as reports grow.

    .venv/bin/python bench/feedback_scale.py --sizes 1000 10000 100000
    .venv/bin/python bench/feedback_scale.py --sizes 1000000 --workers 2

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
        DEBUG="false",  # with DEBUG on, Django keeps the last 9,000 (huge) INSERTs in memory
    )
    os.environ["REDIS_URL"] = ""  # no Redis: the local-memory cache
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


def _processing_worker():
    from feedback.services import processing

    processing.process_all_pending(batch_size=1000)


def process_pending_in_parallel(workers, total, bar):
    """Like N Celery workers: processes that claim batches with SKIP LOCKED."""
    import multiprocessing

    from django.db import connections

    from feedback.models import RawReport

    connections.close_all()  # the children must not share the parent's connection
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_processing_worker) for _ in range(workers)]
    for process in processes:
        process.start()
    while any(process.is_alive() for process in processes):
        time.sleep(2)
        bar.update(total - RawReport.objects.pending().count() - bar.n)
    bar.update(total - bar.n)
    if any(process.exitcode for process in processes):
        raise SystemExit("a processing worker failed")


def add_processed_rows(count, offset, servers=2000):
    """--direct: Report rows exactly as processing makes them from each server's synthetic report,
    minus the `extra` column (every other row of the report, which no rollup or page reads),
    so that a million rows fit this machine's disk and time."""
    from django.utils import timezone
    from tqdm import tqdm

    from feedback.models import Report, Server
    from feedback.parser import parse_report
    from feedback.services import processing
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
        row = processing.report_row(
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


def measure_dashboard(samples=5):
    """Median latency of the dashboard with a cold cache and with a warm one, and the
    number of queries of a cold render. One render first warms up templates and imports."""
    from statistics import median

    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    client = Client()
    assert client.get("/feedback/?period=week").status_code == 200

    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    def timed_render():
        started = time.perf_counter()
        response = client.get("/feedback/?period=week")
        assert response.status_code == 200
        return (time.perf_counter() - started) * 1000

    cold = []
    for _ in range(samples):
        cache.clear()
        executed.clear()
        with connection.execute_wrapper(count):
            cold.append(timed_render())
    queries = len(executed)
    warm = [timed_render() for _ in range(samples)]
    return median(cold), median(warm), queries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument(
        "--direct",
        action="store_true",
        help="insert processed rows directly (no raw reports, no processing rate)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processing processes working side by side"
    )
    args = parser.parse_args()
    setup()
    from tqdm import tqdm

    from feedback.models import Report
    from feedback.services import processing
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
                if args.workers > 1:
                    process_pending_in_parallel(args.workers, new, bar)
                else:
                    processing.process_all_pending(batch_size=1000, progress=bar.update)
                processing = time.perf_counter() - started
        stored = size
        started = time.perf_counter()
        periods = update_rollups()
        rollup_seconds = time.perf_counter() - started
        cold, warm, queries = measure_dashboard()
        print(
            f"{size} reports: {periods} periods in {rollup_seconds:.1f} s, dashboard cold "
            f"{cold:.1f} ms, warm {warm:.1f} ms, {queries} queries",
            flush=True,
        )
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

    print(
        f"\n{'reports':>9} {'parsed':>9} {'processed/s':>12} {'periods':>8} {'rollup s':>9} "
        f"{'dashboard cold ms':>18} {'warm ms':>8} {'queries':>8}"
    )
    for size, parsed, rate, periods, rollup_seconds, cold, warm, queries in results:
        print(
            f"{size:>9} {parsed:>9} {rate:>12.0f} {periods:>8} {rollup_seconds:>9.1f} {cold:>18.1f} {warm:>8.1f} {queries:>8}"
        )


if __name__ == "__main__":
    main()
