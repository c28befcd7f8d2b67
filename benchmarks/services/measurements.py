"""Raw output read into measurements: the importer's points, each checked against what
the columns hold, become Measurement rows; a point a run already has joins its samples."""

import json
import math
import statistics
from collections.abc import Iterable
from typing import Any

from benchmarks.importers import ImportFailed, Point, parse
from benchmarks.importers.base import Parsed
from benchmarks.models import Measurement, Run
from benchmarks.services.limits import check_storable, check_tags, field_limit, text_problem

BULK_BATCH = 1000  # rows per INSERT


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportFailed("the file is not UTF-8 text") from error


def read_output(raw: bytes, importer: str, parameters: dict[str, Any]) -> Parsed:
    """The importer's reading of a file, with every point and the tool's metadata checked
    against what the columns hold (a refusal names the metric or the field)."""
    text = _decode(raw)
    try:
        parsed = parse(text, importer, parameters)
    except ImportFailed:
        raise
    except (ValueError, OverflowError, ArithmeticError, RecursionError) as error:
        # int("…4301 digits…"), float overflow, a deeply nested JSON output
        raise ImportFailed(
            f"a number or structure in the output cannot be read ({error})"
        ) from error
    for point in parsed.points:
        _check_point(point)
    check_storable("the tool's details", parsed.metadata)
    return parsed


def _check_point(point: Point) -> None:
    for name in ("metric", "unit"):
        problem = text_problem(
            point.metric if name == "metric" else point.unit, field_limit(Measurement, name)
        )
        if problem:
            raise ImportFailed(f"the output's {name} {getattr(point, name)[:60]!r}: {problem}")
    problem = text_problem(point.label, 200)
    if problem:
        raise ImportFailed(f"the output's series {point.label[:60]!r}: {problem}")
    check_tags("the output's parameters", point.parameters)
    for name in ("value", "minimum", "median", "maximum", "stddev"):
        value = getattr(point, name)
        problem = None if value is None else _figure_problem(value)
        if problem:
            raise ImportFailed(f"{point.metric[:60]}: the {name} is {problem}")
    for sample in point.samples:
        problem = _figure_problem(sample)
        if problem:
            raise ImportFailed(f"{point.metric[:60]}: a sample is {problem}")


def _figure_problem(value: Any) -> str | None:
    try:
        finite = math.isfinite(float(value))
    except (TypeError, ValueError, OverflowError):
        finite = False
    return None if finite else "not a finite number a chart can show"


def _key(metric: str, parameters: dict[str, Any]) -> tuple[str, str]:
    return metric, json.dumps(parameters, sort_keys=True)


SUMMARY_FIELDS = ("value", "samples", "minimum", "maximum", "median", "stddev")


def _summarise(measurement: Measurement) -> None:
    """After a repetition was added: the value is the mean of the repetitions, the spread theirs."""
    samples = measurement.samples
    measurement.value = statistics.fmean(samples)
    measurement.minimum, measurement.maximum = min(samples), max(samples)
    measurement.median = statistics.median(samples)
    measurement.stddev = statistics.stdev(samples) if len(samples) > 1 else None


def from_points(
    run: Run, points: Iterable[Point], existing: dict[tuple[str, str], Measurement]
) -> tuple[list[Measurement], dict[int, Measurement]]:
    """New points become measurements (returned unsaved); a point ``existing`` already has
    (same metric and parameters: another repetition) joins that measurement's samples
    (returned by pk when it is stored)."""
    new: list[Measurement] = []
    repeated: dict[int, Measurement] = {}
    for p in points:
        known = existing.get(_key(p.metric, p.parameters))
        if known is None:
            measurement = Measurement(
                run=run,
                metric=p.metric,
                unit=p.unit,
                higher_is_better=p.higher_is_better,
                parameters=p.parameters,
                value=p.value,
                minimum=p.minimum,
                median=p.median,
                maximum=p.maximum,
                stddev=p.stddev,
                samples=p.samples,
                headline=p.headline,
            )
            existing[_key(p.metric, p.parameters)] = measurement
            new.append(measurement)
            continue
        known.samples = [*(known.samples or [known.value]), *(p.samples or [p.value])]
        _summarise(known)
        if known.pk:
            repeated[known.pk] = known
    return new, repeated


def add_points(run: Run, points: Iterable[Point]) -> None:
    """Add points to a stored run (see ``from_points``)."""
    existing = {_key(m.metric, m.parameters): m for m in run.measurements.all()}
    new, repeated = from_points(run, points, existing)
    Measurement.objects.bulk_create(new, batch_size=BULK_BATCH)
    # One UPDATE per repeated point: bulk_update's single statement of CASE WHEN pk = ...
    # branches cost more to build and to run than the plain updates it replaces.
    for pk, measurement in repeated.items():
        Measurement.objects.filter(pk=pk).update(
            **{field: getattr(measurement, field) for field in SUMMARY_FIELDS}
        )
