#!/usr/bin/env python
"""How long each public URL takes to build, uncached, in one process.

    DEBUG=false DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/page_build.py
        [--repeat 5] [--top 30] [--limit-ms 20] [--only /download/]

Django's test client, DEBUG off, against the database DATABASE_URL names (the demo
content: ``manage.py migrate && manage.py load_demo``). Every URL the sitemap lists, and
the feeds and API roots it does not (tests/public_urls.py), is asked once to warm the
process (its queries counted, the cache cleared before), then ``--repeat`` times with the
cache cleared before each (the kept lookups of core.pagecache too): the median is its
build time. Prints the slowest URLs with their median ms and queries, then how many are
over ``--limit-ms`` and over 10 queries, and the load average before and after: figures
from a loaded machine decide nothing.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("CONN_MAX_AGE", "60")  # as production: one connection kept
MAX_QUERIES = 10


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--limit-ms", type=float, default=20.0)
    parser.add_argument("--only", default="", help="only the paths starting with this")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from core import pagecache
    from tests.public_urls import public_paths

    assert not settings.DEBUG, "run with DEBUG=false: DEBUG keeps every query"
    print(uptime())
    client = Client()

    def cold_get(path):
        cache.clear()
        pagecache.content_changed()
        started = time.perf_counter()
        response = client.get(path)
        return response, (time.perf_counter() - started) * 1000

    paths = [p for p in public_paths(client) if p.startswith(args.only)]
    results = []
    for path in paths:
        cache.clear()
        pagecache.content_changed()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        count = len(queries)  # now: the next request empties the log it slices
        if response.status_code != 200:
            print(f"{response.status_code} {path}")
        times = []
        for _ in range(args.repeat):
            timed, ms = cold_get(path)
            if timed.status_code != 200:
                print(f"{timed.status_code} {path} (timed run)")
            times.append(ms)
        results.append((statistics.median(times), count, path))
    results.sort(reverse=True)
    print(f"{'ms':>8} {'queries':>7}  path (median of {args.repeat}, uncached)")
    for ms, count, path in results[: args.top]:
        print(f"{ms:8.1f} {count:7d}  {path}")
    slow = sum(ms > args.limit_ms for ms, _, _ in results)
    many = sum(count > MAX_QUERIES for _, count, _ in results)
    print(
        f"{len(results)} URLs: {slow} over {args.limit_ms:g} ms, {many} over {MAX_QUERIES} "
        f"queries; total {sum(ms for ms, _, _ in results) / 1000:.1f} s"
    )
    print(uptime())


if __name__ == "__main__":
    main()
