"""YCSB output: the default text exporter and the JSON array exporter. Every row is kept:
per operation its count, average/min/max/percentile latencies and return codes; the
overall run time and throughput; the garbage collector's counts and times."""

import json
import re

from benchmarks.importers.base import ImportFailed, Point, number
from core.numbers import is_ascii_integer

VERSION = "ycsb/2"
PERCENTILE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)thPercentileLatency\((\w+)\)$")
WITH_UNIT = re.compile(r"^(?P<name>.+?)\((?P<unit>[^)]*)\)$")
LATENCY_NAMES = {
    "AverageLatency": "average latency",
    "MinLatency": "minimum latency",
    "MaxLatency": "maximum latency",
    "LatencyVariance": "latency variance",
}
UNITS = {"us": "µs", "ms": "ms", "ops/sec": "ops/s", "%": "%"}


def looks_like(text: str) -> bool:
    return "[OVERALL]" in text or '"metric": "OVERALL"' in text or '"metric":"OVERALL"' in text


def _point(operation, measurement, value, parameters, line):
    figure = number(value, line)
    if (operation, measurement) == ("OVERALL", "Throughput(ops/sec)"):
        return Point("throughput", figure, "ops/s", True, parameters)
    if (operation, measurement) == ("OVERALL", "RunTime(ms)"):
        return Point("run time", figure, "ms", False, parameters, headline=False)
    prefix = operation.lower()
    is_operation = not operation.startswith(("TOTAL_GC", "OVERALL"))
    headline = is_operation and operation != "CLEANUP"
    percentile = PERCENTILE.match(measurement)
    if percentile:
        rank = percentile.group(1)
        return Point(
            f"{prefix} {rank}th percentile latency",
            figure,
            UNITS.get(percentile.group(2), percentile.group(2)),
            False,
            parameters,
            headline=headline,
        )
    if measurement.startswith("Return="):
        status = measurement.split("=", 1)[1]
        return Point(
            f"{prefix} returned {status}",
            figure,
            "operations",
            status == "OK",
            parameters,
            headline=False,
        )
    if measurement == "Operations":
        return Point(f"{prefix} operations", figure, "operations", True, parameters, headline=False)
    with_unit = WITH_UNIT.match(measurement)
    name, unit = (
        (with_unit.group("name"), with_unit.group("unit")) if with_unit else (measurement, "")
    )
    if name in LATENCY_NAMES:
        unit = UNITS.get(unit, unit) + ("²" if name == "LatencyVariance" else "")
        return Point(
            f"{prefix} {LATENCY_NAMES[name]}",
            figure,
            unit,
            False,
            parameters,
            headline=headline and name == "AverageLatency",
        )
    return Point(
        f"{prefix} {name.lower()}", figure, UNITS.get(unit, unit), False, parameters, headline=False
    )


def _rows(text):
    if text.lstrip().startswith("[{") or text.lstrip().startswith("[ {") or text.lstrip() == "[]":
        try:
            data = json.loads(text)
            return [(r["metric"], r["measurement"], r["value"], 1) for r in data]
        except json.JSONDecodeError as error:
            raise ImportFailed(f"not valid YCSB JSON: {error.msg}", error.lineno) from error
        except (KeyError, TypeError) as error:
            raise ImportFailed(f"not YCSB JSON: a row lacks {error}", 1) from error
    rows = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("["):
            continue
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 3 or not parts[0].endswith("]"):
            raise ImportFailed("expected '[METRIC], measurement, value'", line_number)
        rows.append((parts[0].strip("[]"), parts[1], parts[2], line_number))
    return rows


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    parameters = dict(parameters or {})
    points, histograms = [], set()
    operations: dict[str, set] = {}
    for operation, measurement, value, line in _rows(text):
        if is_ascii_integer(str(measurement).lstrip(">")):
            histograms.add(operation)  # histogram buckets: kept in the raw file and the metadata
            continue
        points.append(_point(operation, str(measurement), value, parameters, line))
        operations.setdefault(operation, set()).add(str(measurement))
    if "Throughput(ops/sec)" not in operations.get("OVERALL", ()):
        raise ImportFailed("no [OVERALL], Throughput(ops/sec) line", 1)
    last = _rows(text)[-1][3] if points else 1
    for operation, measurements in operations.items():
        if "Operations" in measurements and "AverageLatency(us)" not in measurements:
            raise ImportFailed(
                f"the output is incomplete: {operation} has an operation count but no average latency",
                last,
            )
    return points


def metadata(text: str) -> dict:
    buckets: dict[str, dict] = {}
    for operation, measurement, value, _line in _rows(text):
        if is_ascii_integer(str(measurement).lstrip(">")):
            buckets.setdefault(operation, {})[str(measurement)] = value
    return {"tool": "YCSB", **({"histograms": buckets} if buckets else {})}
