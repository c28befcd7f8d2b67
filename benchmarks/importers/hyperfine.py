"""hyperfine ``--export-json``: one point per command; parameters from -P/-L scans."""

import json
import statistics

from benchmarks.importers.base import ImportFailed, Point

VERSION = "hyperfine-json/1"


def looks_like(text: str) -> bool:
    return '"results"' in text and '"command"' in text and '"mean"' in text


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    try:
        data = json.loads(text)
        results = data["results"]
    except json.JSONDecodeError as error:
        raise ImportFailed(f"not valid JSON: {error.msg}", error.lineno) from error
    except (KeyError, TypeError) as error:
        raise ImportFailed("expected an object with a 'results' list", 1) from error
    points = []
    for index, result in enumerate(results):
        try:
            times = result.get("times") or []
            points.append(
                Point(
                    metric="wall time",
                    value=float(result["mean"]),
                    unit="s",
                    higher_is_better=False,
                    parameters={**(parameters or {}), **(result.get("parameters") or {})},
                    minimum=result.get("min"),
                    maximum=result.get("max"),
                    median=result.get("median") or (statistics.median(times) if times else None),
                    stddev=result.get("stddev"),
                    samples=times,
                    label=result["command"],
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ImportFailed(f"result {index + 1} lacks {error}", 1) from error
    return points
