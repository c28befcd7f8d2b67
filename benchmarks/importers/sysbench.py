"""sysbench text output: 0.4, 0.5, 1.0 and 1.1-dev layouts, recognised by block headers.

Every figure of the final report becomes a point (query counts, rates, errors and
reconnects, total time and events, each latency line including any ``Nth percentile``,
thread fairness); the interval lines and the options are kept as metadata. A report
that stops before its last block is refused with the line it stopped at.
"""

import re

from benchmarks.importers.base import ImportFailed, Point, number

VERSION = "sysbench-text/2"
HEADERS = (
    "OLTP test statistics:",
    "SQL statistics:",
    "General statistics:",
    "Test execution summary:",
    "Throughput:",
    "CPU speed:",
)
LATENCY_BLOCKS = ("Latency (ms):", "response time:", "per-request statistics:")
HEADER_LINE = re.compile(r"^sysbench ([0-9][\w.+~-]*)")
THREADS = [
    re.compile(r"^Number of threads:\s*([0-9]+)"),
    re.compile(r"threads:\s*([0-9]+),"),
    re.compile(r"thds:\s*([0-9]+)"),
]
COUNT_AND_RATE = re.compile(
    r"^\s*(?P<name>[A-Za-z/ ]+?):\s+(?P<count>[0-9]+)\s*(?:\((?P<rate>[0-9.]+) per sec(?:\.|ond)\))?\s*$"
)
KEY_VALUE = re.compile(r"^\s*(?P<key>[^:]+?):\s+(?P<value>\S.*?)\s*$")
LATENCY = re.compile(
    r"^\s*(?P<key>min|avg|max|sum|approx\.\s+(?P<approx>[0-9]+) percentile|(?P<nth>[0-9]+)th percentile):\s+(?P<value>[0-9.]+)(?:ms)?\s*$"
)
FAIRNESS = re.compile(
    r"^\s*(?P<key>events|execution time) \(avg/stddev\):\s+(?P<avg>[0-9]+\.[0-9]{4})/(?P<stddev>[0-9]+\.[0-9]{2})\s*$"
)
TRANSFERRED = re.compile(r"^([0-9.]+) MiB transferred \(([0-9.]+) MiB/sec\)\s*$")
INTERVAL = re.compile(r"^\[\s*(?P<time>[0-9]+)s\s*\]\s+(?P<rest>.*)$")
HISTOGRAM_ROW = re.compile(r"^\s*(?P<value>[0-9]+\.[0-9]+) \|\**\s+(?P<count>[0-9]+)\s*$")

# sysbench's name for a counted line -> (metric for the count, metric for the rate, unit, higher is better)
COUNTED = {
    "transactions": ("transactions", "transactions per second", "tps", True),
    "queries": ("queries", "queries per second", "qps", True),
    "read/write requests": ("read/write requests", "read/write requests per second", "requests/s", True),
    "other operations": ("other operations", "other operations per second", "operations/s", True),
    "ignored errors": ("ignored errors", "ignored errors per second", "errors/s", False),
    "reconnects": ("reconnects", "reconnects per second", "reconnects/s", False),
    "deadlocks": ("deadlocks", "deadlocks per second", "deadlocks/s", False),
    "Total operations": ("operations", "operations per second", "operations/s", True),
}  # fmt: skip
QUERY_KINDS = {
    "read": "read queries",
    "write": "write queries",
    "other": "other queries",
    "total": "total queries",
}
HEADLINE = {
    "transactions per second",
    "queries per second",
    "events per second",
    "average latency",
    "operations per second",
    "transfer rate",
}


def looks_like(text: str) -> bool:
    return any(header in text for header in HEADERS) and (
        "sysbench" in text or "transactions:" in text
    )


def metadata(text: str) -> dict:
    lines = text.splitlines()
    meta: dict = {}
    for line in lines[:5]:
        found = HEADER_LINE.match(line)
        if found:
            meta["tool"] = f"sysbench {found.group(1)}"
            break
    options = {}
    for line in lines:
        if line.strip() in (*HEADERS, "Threads started!") or INTERVAL.match(line):
            break
        if line.startswith("Latency histogram"):
            break
        pair = KEY_VALUE.match(line)
        if pair and not line.startswith("sysbench"):
            options[pair.group("key").strip()] = pair.group("value")
    if options:
        meta["options"] = options
    intervals = [m.group(0).strip() for m in map(INTERVAL.match, lines) if m]
    if intervals:
        meta["intervals"] = intervals
    histogram = [
        [float(m.group("value")), int(m.group("count"))]
        for m in map(HISTOGRAM_ROW.match, lines)
        if m
    ]
    if histogram:
        meta["latency histogram (ms, count)"] = histogram
    return meta


def _threads(lines):
    for pattern in THREADS:
        found = next((m for m in map(pattern.search, lines) if m), None)
        if found:
            return int(found.group(1))
    return None


def _percentile_name(match):
    rank = match.group("nth") or match.group("approx")
    if rank:
        suffix = {"1": "st", "2": "nd", "3": "rd"}.get(rank[-1], "th")
        if rank.endswith(("11", "12", "13")):
            suffix = "th"
        return f"{rank}{suffix} percentile latency"
    return {
        "min": "minimum latency",
        "avg": "average latency",
        "max": "maximum latency",
        "sum": "latency sum",
    }[match.group("key")]


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    parameters = dict(parameters or {})
    lines = text.splitlines()
    if not any(line.strip() in HEADERS for line in lines):
        last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=1)
        raise ImportFailed(
            "no sysbench statistics block (SQL statistics, OLTP test statistics, ...) found: "
            f"the output stops at line {last}",
            last,
        )
    if "threads" not in parameters:
        threads = _threads(lines)
        if threads is not None:
            parameters["threads"] = threads
    points: list[Point] = []
    seen: set[str] = set()

    def add(metric, value, unit, higher, line):
        if metric in seen:
            raise ImportFailed(f"{metric!r} appears twice: two reports in one file?", line)
        seen.add(metric)
        points.append(
            Point(
                metric,
                number(value, line),
                unit,
                higher,
                dict(parameters),
                headline=metric in HEADLINE or metric.endswith("percentile latency"),
            )
        )

    block = sub = None
    blocks_seen = []
    last_line = 0
    for line_number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        last_line = line_number
        if stripped in HEADERS or stripped in (*LATENCY_BLOCKS, "Threads fairness:"):
            if stripped in LATENCY_BLOCKS and block in (
                "General statistics:",
                "Test execution summary:",
            ):
                sub = stripped
            else:
                block, sub = stripped, None
            blocks_seen.append(stripped)
            continue
        if stripped == "queries performed:":
            sub = stripped
            continue
        if (
            INTERVAL.match(line)
            or HISTOGRAM_ROW.match(line)
            or line.startswith("Latency histogram")
        ):
            continue
        transferred = TRANSFERRED.match(stripped)
        if transferred:
            add("transferred", transferred.group(1), "MiB", True, line_number)
            add("transfer rate", transferred.group(2), "MiB/s", True, line_number)
            continue
        if sub == "queries performed:":
            pair = KEY_VALUE.match(line)
            if pair and pair.group("key") in QUERY_KINDS:
                add(
                    QUERY_KINDS[pair.group("key")],
                    pair.group("value"),
                    "queries",
                    True,
                    line_number,
                )
                continue
            sub = None
        if block in LATENCY_BLOCKS or sub in LATENCY_BLOCKS:
            latency = LATENCY.match(line)
            if latency:
                add(_percentile_name(latency), latency.group("value"), "ms", False, line_number)
                continue
            if "percentile" in stripped and "disabled" in stripped:
                continue
        if block == "Threads fairness:":
            fairness = FAIRNESS.match(line)
            if not fairness:
                raise ImportFailed(
                    f"unexpected line in Threads fairness: {stripped[:60]!r}", line_number
                )
            what = fairness.group("key")
            unit = "events" if what == "events" else "s"
            add(f"{what} per thread (average)", fairness.group("avg"), unit, True, line_number)
            add(f"{what} per thread (stddev)", fairness.group("stddev"), unit, False, line_number)
            continue
        counted = COUNT_AND_RATE.match(stripped)
        if counted and counted.group("name") in COUNTED:
            count_metric, rate_metric, unit, higher = COUNTED[counted.group("name")]
            if counted.group("rate") is None:
                raise ImportFailed(
                    f"{counted.group('name')!r} has no rate: the line is cut", line_number
                )
            add(count_metric, counted.group("count"), count_metric, higher, line_number)
            add(rate_metric, counted.group("rate"), unit, higher, line_number)
            continue
        pair = KEY_VALUE.match(line)
        if pair is None:
            continue
        key, value = pair.group("key"), pair.group("value")
        if key == "total time" or key == "time elapsed":
            add("total time", value.rstrip("s"), "s", False, line_number)
        elif key == "total number of events":
            add("events", value, "events", True, line_number)
        elif key == "total time taken by event execution":
            add("total event execution time", value.rstrip("s"), "s", False, line_number)
        elif key in ("events per second", "events/s (eps)"):
            add("events per second", value, "events/s", True, line_number)
    _check_complete(seen, blocks_seen, lines, last_line)
    return points


def _check_complete(seen, blocks_seen, lines, last_line):
    """Refuse a report cut short: every block it started, and the blocks that follow, must be whole."""
    required = []
    if "SQL statistics:" in blocks_seen or "OLTP test statistics:" in blocks_seen:
        required += [
            "read queries",
            "write queries",
            "other queries",
            "total queries",
            "transactions per second",
        ]
    if "SQL statistics:" in blocks_seen:
        required += ["queries per second", "ignored errors per second", "reconnects per second"]
    required += ["total time", "events"]
    if (
        "Latency (ms):" in blocks_seen
        or "Throughput:" in blocks_seen
        or "SQL statistics:" in blocks_seen
    ):
        required += [
            "minimum latency",
            "average latency",
            "maximum latency",
            "latency sum",
            "events per thread (average)",
            "execution time per thread (average)",
        ]
    else:
        required += [
            "minimum latency",
            "average latency",
            "maximum latency",
            "events per thread (average)",
        ]
    missing = [metric for metric in required if metric not in seen]
    if missing:
        where = lines[last_line - 1].strip()[:60] if last_line else ""
        raise ImportFailed(
            f"the output is incomplete: it stops at line {last_line} ({where!r}) "
            f"without {', '.join(missing[:4])}{' …' if len(missing) > 4 else ''}",
            last_line,
        )
