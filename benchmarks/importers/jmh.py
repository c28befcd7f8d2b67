"""JMH JSON (``-rf json``): one series per benchmark, its @Params as parameters, every
iteration kept as a sample, secondary metrics (profilers) kept; JDK and VM as metadata."""

import json

from benchmarks.importers.base import ImportFailed, Point, figure, scalar

VERSION = "jmh-json/2"


def looks_like(text: str) -> bool:
    return '"jmhVersion"' in text and '"primaryMetric"' in text


def _load(text):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportFailed(f"not valid JSON: {error.msg}", error.lineno) from error
    if not isinstance(data, list) or not data:
        raise ImportFailed("expected a JSON array of JMH results", 1)
    return data


def _higher_is_better(unit, mode):
    return unit.startswith("ops/") or mode == "thrpt"


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    points = []
    for index, result in enumerate(_load(text)):
        try:
            metric = result["primaryMetric"]
            unit = metric["scoreUnit"]
            mode = result.get("mode", "")
            raw = [figure(value) for fork in metric.get("rawData", []) for value in fork]
            percentiles = metric.get("scorePercentiles", {})
            params = {name: scalar(value) for name, value in (result.get("params") or {}).items()}
            common = {
                "parameters": {**(parameters or {}), "threads": result.get("threads"), **params},
                "label": result["benchmark"].rsplit(".", 1)[-1],
            }
            points.append(
                Point(
                    metric="score",
                    value=figure(metric["score"]),
                    unit=unit,
                    higher_is_better=_higher_is_better(unit, mode),
                    minimum=percentiles.get("0.0"),
                    median=percentiles.get("50.0"),
                    maximum=percentiles.get("100.0"),
                    samples=raw,
                    **common,
                )
            )
            error = metric.get("scoreError")
            if isinstance(error, int | float) and error == error:
                points.append(
                    Point(
                        "score error (99.9%)", figure(error), unit, False, headline=False, **common
                    )
                )
            for name, secondary in (result.get("secondaryMetrics") or {}).items():
                secondary_unit = secondary.get("scoreUnit", "")
                samples = [figure(v) for fork in secondary.get("rawData", []) for v in fork]
                points.append(
                    Point(
                        name,
                        figure(secondary["score"]),
                        secondary_unit,
                        _higher_is_better(secondary_unit, "") and not name.startswith("·gc"),
                        samples=samples,
                        headline=False,
                        **common,
                    )
                )
        except (KeyError, TypeError, ValueError) as error:
            raise ImportFailed(f"result {index + 1} lacks {error}", 1) from error
    return points


def metadata(text: str) -> dict:
    first = _load(text)[0]
    if not isinstance(first, dict):
        return {}
    meta = {
        "tool": f"JMH {first.get('jmhVersion', '')}".strip(),
        "jdk": first.get("jdkVersion", ""),
        "vm": f"{first.get('vmName', '')} {first.get('vmVersion', '')}".strip(),
        "jvm": first.get("jvm", ""),
        "jvm arguments": " ".join(first.get("jvmArgs") or []),
        "mode": first.get("mode", ""),
        "forks": first.get("forks"),
        "warmup": f"{first.get('warmupIterations')} × {first.get('warmupTime')}",
        "measurement": f"{first.get('measurementIterations')} × {first.get('measurementTime')}",
    }
    return {key: value for key, value in meta.items() if value not in ("", None)}
