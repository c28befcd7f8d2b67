"""sysbench text output: 0.4, 0.5, 1.0 and 1.1-dev layouts, recognised by block headers."""

import re

from benchmarks.importers.base import ImportFailed, Point, number

VERSION = "sysbench-text/1"
PER_SEC = re.compile(
    r"^\s*(transactions|queries|read/write requests|events/s \(eps\)):\s+([\d.]+)\s*(?:\(([\d.]+) per sec\.\))?"
)
LATENCY_LINE = re.compile(
    r"^\s*(min|avg|max|approx\.\s+95 percentile|(\d+)th percentile):\s+([\d.]+)(ms)?\s*$"
)
THREADS = [
    re.compile(r"^Number of threads:\s*(\d+)"),
    re.compile(r"threads:\s*(\d+),"),
    re.compile(r"thds:\s*(\d+)"),
]
HEADERS = (
    "OLTP test statistics:",
    "SQL statistics:",
    "General statistics:",
    "Test execution summary:",
    "Throughput:",
)


def looks_like(text: str) -> bool:
    return any(header in text for header in HEADERS) and (
        "sysbench" in text or "transactions:" in text
    )


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    parameters = dict(parameters or {})
    lines = text.splitlines()
    if not any(line.strip() in HEADERS for line in lines):
        raise ImportFailed(
            "no sysbench statistics block (SQL statistics, OLTP test statistics, ...) found", 1
        )
    if "threads" not in parameters:
        for pattern in THREADS:
            found = next((m for m in map(pattern.search, lines) if m), None)
            if found:
                parameters["threads"] = int(found.group(1))
                break
    points: list[Point] = []
    block = None
    latency = {}
    for number_, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped in HEADERS or stripped in (
            "Latency (ms):",
            "response time:",
            "per-request statistics:",
        ):
            block = stripped
            continue
        match = PER_SEC.match(line)
        if match:
            name, total, rate = match.groups()
            if name == "events/s (eps)":
                points.append(
                    Point("events per second", number(total, number_), "events/s", True, parameters)
                )
            elif rate is not None:
                metric = {
                    "transactions": "transactions per second",
                    "queries": "queries per second",
                    "read/write requests": "queries per second",
                }[name]
                unit = "tps" if name == "transactions" else "qps"
                if not any(p.metric == metric for p in points):
                    points.append(Point(metric, number(rate, number_), unit, True, parameters))
            continue
        if block in ("Latency (ms):", "response time:", "per-request statistics:"):
            match = LATENCY_LINE.match(line)
            if match:
                key = "95th" if "95" in match.group(1) else match.group(1)
                latency[key] = (number(match.group(3), number_), number_)
    if not points:
        raise ImportFailed(
            "the statistics block has no transactions or events per second", len(lines)
        )
    if "avg" in latency:
        percentile = latency.get("95th", (None,))[0]
        points.append(
            Point(
                "average latency",
                latency["avg"][0],
                "ms",
                False,
                parameters,
                minimum=latency.get("min", (None,))[0],
                maximum=latency.get("max", (None,))[0],
            )
        )
        if percentile is not None:
            points.append(Point("95th percentile latency", percentile, "ms", False, parameters))
    return points
