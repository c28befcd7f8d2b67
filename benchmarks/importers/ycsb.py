"""YCSB output: the default text exporter and the JSON array exporter."""

import json

from benchmarks.importers.base import ImportFailed, Point, number

VERSION = "ycsb/1"
WANTED = {
    ("OVERALL", "Throughput(ops/sec)"): ("throughput", "ops/s", True),
    ("OVERALL", "RunTime(ms)"): ("run time", "ms", False),
}
LATENCIES = {"AverageLatency(us)": "average latency", "95thPercentileLatency(us)": "95th percentile latency",
             "99thPercentileLatency(us)": "99th percentile latency"}  # fmt: skip


def looks_like(text: str) -> bool:
    return "[OVERALL]" in text or '"metric": "OVERALL"' in text or '"metric":"OVERALL"' in text


def _point(metric, measurement, value, parameters, line):
    if (metric, measurement) in WANTED:
        name, unit, better = WANTED[(metric, measurement)]
        return Point(name, number(value, line), unit, better, parameters)
    if measurement in LATENCIES and not metric.startswith(("TOTAL_GC", "CLEANUP")):
        return Point(
            f"{metric.lower()} {LATENCIES[measurement]}",
            number(value, line),
            "µs",
            False,
            parameters,
        )
    return None


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    parameters = dict(parameters or {})
    rows = []
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
            rows = [(r["metric"], r["measurement"], r["value"], 1) for r in data]
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            if not text.lstrip().startswith("[OVERALL]"):
                raise ImportFailed(
                    f"not YCSB JSON ({error})", getattr(error, "lineno", 1)
                ) from error
    if not rows:
        for number_, line in enumerate(text.splitlines(), start=1):
            if not line.startswith("["):
                continue
            parts = [part.strip() for part in line.split(",")]
            if len(parts) != 3 or not parts[0].endswith("]"):
                raise ImportFailed("expected '[METRIC], measurement, value'", number_)
            rows.append((parts[0].strip("[]"), parts[1], parts[2], number_))
    points = [p for p in (_point(m, meas, v, parameters, n) for m, meas, v, n in rows) if p]
    if not any(p.metric == "throughput" for p in points):
        raise ImportFailed("no [OVERALL], Throughput(ops/sec) line", 1)
    return points
