"""JMH JSON (``-rf json``): one point per benchmark, direction from the score unit."""

import json

from benchmarks.importers.base import ImportFailed, Point

VERSION = "jmh-json/1"


def looks_like(text: str) -> bool:
    return '"jmhVersion"' in text and '"primaryMetric"' in text


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportFailed(f"not valid JSON: {error.msg}", error.lineno) from error
    if not isinstance(data, list):
        raise ImportFailed("expected a JSON array of JMH results", 1)
    points = []
    for index, result in enumerate(data):
        try:
            metric = result["primaryMetric"]
            unit = metric["scoreUnit"]
            raw = [value for fork in metric.get("rawData", []) for value in fork]
            percentiles = metric.get("scorePercentiles", {})
            points.append(
                Point(
                    metric="score",
                    value=float(metric["score"]),
                    unit=unit,
                    higher_is_better=unit.startswith("ops/") or result.get("mode") == "thrpt",
                    parameters={
                        **(parameters or {}),
                        "threads": result.get("threads"),
                        **result.get("params", {}),
                    },
                    minimum=percentiles.get("0.0"),
                    median=percentiles.get("50.0"),
                    maximum=percentiles.get("100.0"),
                    samples=raw,
                    label=result["benchmark"].rsplit(".", 1)[-1],
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ImportFailed(f"result {index + 1} lacks {error}", 1) from error
    if not points:
        raise ImportFailed("the file has no results", 1)
    return points
