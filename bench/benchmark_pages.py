"""Time the benchmark pages and chart images against the demo data.

    DATABASE_URL=postgres://…/portal_bench .venv/bin/python bench/benchmark_pages.py [repeats]

Loads the benchmarks demo content (the real sysbench series) into the database named by
DATABASE_URL, then prints the median time of each page (the tests bound their query counts), and the cost
of rendering a chart image cold (matplotlib) against serving it from the cache.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.test import Client  # noqa: E402

from benchmarks import charts, demo, render  # noqa: E402
from benchmarks.models import Run, Suite  # noqa: E402


def median_ms(action, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(repeats=5):
    demo.load(log=print)
    client = Client()
    suite = Suite.objects.get(slug="oltp-read-write-durability")
    a, b = suite.runs.order_by("order")[:2]
    urls = [
        "/benchmarks/oltp-read-write-durability/",
        "/benchmarks/oltp-read-write-history/",
        f"/benchmarks/oltp-read-write-durability/compare/?a={a.pk}&b={b.pk}",
        "/benchmarks/oltp-read-write-durability/charts/transactions-per-second/",
        "/benchmarks/oltp-read-write-durability/charts/transactions-per-second.svg",
        "/benchmarks/oltp-read-write-durability/charts/transactions-per-second.png",
        "/benchmarks/regressions.atom",
    ]
    print(f"{'page':78} {'median ms':>10}")
    for url in urls:
        assert client.get(url).status_code == 200, url  # warm: templates, image cache
        print(f"{url:78} {median_ms(lambda url=url: client.get(url), repeats):10.1f}")
    runs = list(Run.objects.filter(suite=suite).prefetch_related("measurements"))
    spec = charts.build_chart(runs, "transactions per second", slug="transactions-per-second")
    for fmt in ("svg", "png"):
        size = len(render.render(spec, fmt))
        cold = median_ms(lambda fmt=fmt: render.render(spec, fmt), repeats)
        print(
            f"render {fmt} cold (matplotlib, 2 series x 7 points with bands): {cold:.1f} ms, {size} bytes"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
