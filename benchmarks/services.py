"""Publishing benchmark results: importing raw output into a run, atomically."""

from django.core.files.base import ContentFile
from django.db import transaction

from benchmarks.importers import ImportFailed, parse
from benchmarks.models import Attachment, Measurement, Run, Suite

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


def _store_points(run: Run, points) -> None:
    Measurement.objects.bulk_create(
        Measurement(
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
        )
        for p in points
    )


@transaction.atomic
def import_run(
    *,
    suite: Suite,
    label: str,
    raw: bytes,
    file_name: str,
    importer: str = "",
    parameters: dict | None = None,
    variant: dict | None = None,
    user=None,
    **environment,
) -> Run:
    """Parse raw output and store it as a run with its measurements and the raw file.

    Raises ImportFailed (naming the line) and stores nothing when the file does not parse.
    Points that carry their own label (CSV columns, JMH benchmarks, hyperfine commands)
    become one run each, named "<label>: <point label>".
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportFailed("the file is not UTF-8 text") from error
    _name, version, points = parse(text, importer, parameters)
    groups: dict[str, list] = {}
    for point in points:
        groups.setdefault(point.label, []).append(point)
    runs = []
    for index, (point_label, group) in enumerate(groups.items()):
        run = Run.objects.create(
            suite=suite,
            label=f"{label}: {point_label}" if point_label and label else (point_label or label),
            variant={**(variant or {}), **({"series": point_label} if point_label else {})},
            uploaded_by=user,
            **{
                key: value
                for key, value in environment.items()
                if key in RUN_FIELDS and key != "order"
            },
            order=environment.get("order", 0) + index,
        )
        _store_points(run, group)
        runs.append(run)
    attachment = Attachment(
        suite=suite, run=runs[0], kind="raw", parser=version, description=file_name
    )
    attachment.file.save(file_name, ContentFile(raw), save=True)
    return runs[0]


@transaction.atomic
def add_raw_output(
    run: Run, *, raw: bytes, file_name: str, importer: str = "", parameters: dict | None = None
):
    """Add one more raw file's points to an existing run (e.g. one sysbench file per thread count)."""
    _name, version, points = parse(raw.decode("utf-8"), importer, parameters)
    _store_points(run, points)
    attachment = Attachment(
        suite=run.suite, run=run, kind="raw", parser=version, description=file_name
    )
    attachment.file.save(file_name, ContentFile(raw), save=True)
    return len(points)
