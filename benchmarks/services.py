"""Publishing benchmark results: importing raw output into a run, atomically."""

import json
import statistics

from django.core.files.base import ContentFile
from django.db import transaction

from benchmarks.importers import ImportFailed, parse
from benchmarks.models import Attachment, Measurement, Run, Suite
from core.uploads import declared_body_size

# Raw outputs are text; the largest real one we know (sysbench with a report every
# second over an hour) is well under a megabyte.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# A multipart body carries the form fields and boundaries besides the file.
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
SIZE_MESSAGE = "The file is larger than 5 MiB."

RUN_FIELDS = [
    "hardware",
    "os",
    "server_version",
    "server_config",
    "client",
    "run_date",
    "notes",
    "source",
    "order",
]


def declared_size_too_large(request) -> bool:
    """True when the request says it is larger than any acceptable upload: checked before
    a byte of the body is read (a missing or invalid length is left to the parser's limits)."""
    return declared_body_size(request) > MAX_REQUEST_BYTES


def check_tags(name: str, value) -> dict:
    """``parameters`` and ``variant``: a JSON object of names to numbers, strings or booleans."""
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value or "{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ImportFailed(
                f"{name}: not valid JSON ({getattr(error, 'msg', error)})"
            ) from error
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ImportFailed(
            f'{name}: expected a JSON object such as {{"threads": 64}}, got {type(value).__name__}'
        )
    for key, item in value.items():
        if not isinstance(item, str | int | float | bool) or (
            isinstance(item, float) and item != item
        ):
            raise ImportFailed(
                f"{name}: the value of {key!r} must be a number, a string or true/false, "
                f"not {type(item).__name__}"
            )
        if len(str(key)) > 60 or len(str(item)) > 200:
            raise ImportFailed(f"{name}: {key!r} is too long")
    return value


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportFailed("the file is not UTF-8 text") from error


def _key(metric, parameters):
    return metric, json.dumps(parameters, sort_keys=True)


def _summarise(measurement: Measurement) -> None:
    """After a repetition was added: the value is the mean of the repetitions, the spread theirs."""
    samples = measurement.samples
    measurement.value = statistics.fmean(samples)
    measurement.minimum, measurement.maximum = min(samples), max(samples)
    measurement.median = statistics.median(samples)
    measurement.stddev = statistics.stdev(samples) if len(samples) > 1 else None


def _store_points(run: Run, points) -> None:
    """New points become measurements; a point the run already has (same metric and
    parameters: another repetition) joins that measurement's samples."""
    existing = {_key(m.metric, m.parameters): m for m in run.measurements.all()}
    new, repeated = [], {}
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
    Measurement.objects.bulk_create(new)
    if repeated:
        Measurement.objects.bulk_update(
            repeated.values(), ["value", "samples", "minimum", "maximum", "median", "stddev"]
        )


def _describe(run: Run, file_name: str, version: str, metadata: dict) -> None:
    run.details = {
        **run.details,
        "files": [
            *run.details.get("files", []),
            {"file": file_name, "importer": version, **metadata},
        ],
    }
    if not run.client and metadata.get("tool"):
        run.client = metadata["tool"]


@transaction.atomic
def import_run(
    *,
    suite: Suite,
    label: str,
    raw: bytes,
    file_name: str,
    importer: str = "",
    parameters=None,
    variant=None,
    user=None,
    **environment,
) -> Run:
    """Parse raw output and store it as a run with its measurements and the raw file.

    Raises ImportFailed (naming the line or the field) and stores nothing when the file
    does not parse, is incomplete, or the parameters or variant are not JSON objects.
    Points that carry their own label (CSV columns, JMH benchmarks, hyperfine commands)
    become one run each, named "<label>: <point label>".
    """
    if len(raw) > MAX_UPLOAD_BYTES:
        raise ImportFailed(SIZE_MESSAGE)
    parameters = check_tags("parameters", parameters)
    variant = check_tags("variant", variant)
    parsed = parse(_decode(raw), importer, parameters)
    groups: dict[str, list] = {}
    for point in parsed.points:
        groups.setdefault(point.label, []).append(point)
    runs = []
    for index, (point_label, group) in enumerate(groups.items()):
        run = Run(
            suite=suite,
            label=f"{label}: {point_label}" if point_label and label else (point_label or label),
            variant={**variant, **({"series": point_label} if point_label else {})},
            uploaded_by=user,
            **{
                key: value
                for key, value in environment.items()
                if key in RUN_FIELDS and key != "order"
            },
            order=environment.get("order", 0) + index,
        )
        _describe(run, file_name, parsed.version, parsed.metadata)
        run.save()
        _store_points(run, group)
        runs.append(run)
    attachment = Attachment(
        suite=suite, run=runs[0], kind="raw", parser=parsed.version, description=file_name
    )
    attachment.file.save(file_name, ContentFile(raw), save=True)
    return runs[0]


@transaction.atomic
def add_raw_output(run: Run, *, raw: bytes, file_name: str, importer: str = "", parameters=None):
    """Add one more raw file's points to an existing run: one sysbench file per thread
    count, or another repetition of a point the run already has."""
    parsed = parse(_decode(raw), importer, check_tags("parameters", parameters))
    _store_points(run, parsed.points)
    _describe(run, file_name, parsed.version, parsed.metadata)
    run.save(update_fields=["details", "client"])
    attachment = Attachment(
        suite=run.suite, run=run, kind="raw", parser=parsed.version, description=file_name
    )
    attachment.file.save(file_name, ContentFile(raw), save=True)
    return len(parsed.points)
