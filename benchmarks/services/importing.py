"""Importing an upload: raw output stored as runs with their measurements and the raw
file, atomically."""

import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from benchmarks.importers import ImportFailed, Point
from benchmarks.models import Attachment, Measurement, Run, Suite
from benchmarks.services.limits import (
    RUN_FIELDS,
    check_environment,
    check_tags,
    field_limit,
    text_problem,
)
from benchmarks.services.measurements import BULK_BATCH, add_points, from_points, read_output
from benchmarks.services.permissions import (
    Allowance,
    may_publish,
    missing_provenance_message,
    submission_allowance,
)
from core.uploads import declared_body_size
from outbox import files
from search import signals as search_signals

# Raw outputs are text; the largest real one we know (sysbench with a report every
# second over an hour) is well under a megabyte.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# A multipart body carries the form fields and boundaries besides the file.
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
SIZE_MESSAGE = "The file is larger than 5 MiB."


def declared_size_too_large(request: HttpRequest) -> bool:
    """True when the request says it is larger than any acceptable upload: checked before
    a byte of the body is read (a missing or invalid length is left to the parser's limits)."""
    return declared_body_size(request) > MAX_REQUEST_BYTES


class OverAllowance(ImportFailed):
    """The upload would store more runs than its account may store now. ``wait``: seconds
    until it may, or None when the file holds more runs than the limit itself."""

    def __init__(self, message: str, wait: int | None) -> None:
        super().__init__(message)
        self.wait = wait


def over_allowance(allowance: Allowance, runs: int) -> OverAllowance:
    wait = allowance.wait_for(runs)
    rate = settings.BENCHMARK_SUBMIT_RATE
    if wait is None:
        return OverAllowance(
            f"the file holds {runs:,} series, each a run; an account may store "
            f"{allowance.limit:,} runs in a period ({rate}): split the file",
            None,
        )
    held = f"the file holds {runs:,} series, each a run; " if runs > 1 else ""
    return OverAllowance(
        f"too many submissions: {held}you may store {allowance.remaining:,} more runs now "
        f"({rate}) and may submit again in {wait} seconds",
        wait,
    )


def submit_run(*, user: User, **upload: Any) -> Run:
    """import_run for a contributor: an account without publish_run stores at most
    BENCHMARK_SUBMIT_RATE runs (not uploads: one file may hold many series) and is refused
    with OverAllowance, storing nothing, beyond it. Counted first before the file is read,
    then again with the account's row locked until the commit (import_run), so two
    uploads at once are counted one after the other."""
    allowance = None
    if not may_publish(user):
        allowance = submission_allowance(user)
        if allowance.remaining == 0:
            raise over_allowance(allowance, 1)
    return import_run(user=user, allowance=allowance, **upload)


def _check_row_limits(
    groups: dict[str, list[Point]], points: int, allowance: Allowance | None
) -> None:
    """Refuse, before anything is written, a file that would make more rows than an upload
    may (one run per labelled series, one measurement per point)."""
    most_runs = settings.BENCHMARK_MAX_RUNS_PER_UPLOAD
    if len(groups) > most_runs:
        raise ImportFailed(
            f"the file holds {len(groups):,} series (commands, benchmarks or columns), each "
            f"a run; an upload may make at most {most_runs:,} runs"
        )
    most_points = settings.BENCHMARK_MAX_MEASUREMENTS_PER_UPLOAD
    if points > most_points:
        raise ImportFailed(
            f"the file holds {points:,} measurements; an upload may hold at most {most_points:,}"
        )
    _check_allowance(allowance, len(groups))


def _check_allowance(allowance: Allowance | None, runs: int) -> None:
    if allowance is not None and runs > allowance.remaining:
        raise over_allowance(allowance, runs)


def _describe(run: Run, file_name: str, version: str, metadata: dict[str, Any]) -> None:
    run.details = {
        **run.details,
        "files": [
            *run.details.get("files", []),
            {"file": file_name, "importer": version, **metadata},
        ],
    }
    tool = metadata.get("tool")
    # The tool names itself in the output ("JMH <jmhVersion>"): taken only if it fits the
    # field, since the upload is anyone's text.
    if not run.client and tool and not text_problem(tool, field_limit(Run, "client")):
        run.client = tool


def import_run(
    *,
    suite: Suite,
    label: str,
    raw: bytes,
    file_name: str,
    importer: str = "",
    parameters: object = None,
    variant: object = None,
    user: User | None = None,
    allowance: Allowance | None = None,
    **environment: Any,
) -> Run:
    """Parse raw output and store it as a run with its measurements and the raw file.

    Raises ImportFailed (naming the line or the field) and stores nothing when the file
    does not parse, is incomplete, holds what the columns cannot (a 400-digit figure, a
    500-character version), or the parameters or variant are not JSON objects.
    Points that carry their own label (CSV columns, JMH benchmarks, hyperfine commands)
    become one run each, named "<label>: <point label>".

    A user with ``publish_run`` publishes at once (refused, storing nothing, when the
    provenance is incomplete); anyone else's run is a draft until staff review it.
    With an ``allowance`` (``submit_run``), a file of more runs than it leaves is refused.

    The raw file is stored once everything is checked, before the transaction that
    records the runs (outbox/files.py: deleted by the outbox if that never commits).
    """
    if len(raw) > MAX_UPLOAD_BYTES:
        raise ImportFailed(SIZE_MESSAGE)
    parameters = check_tags("parameters", parameters)
    variant = check_tags("variant", variant)
    environment = check_environment(
        {key: value for key, value in environment.items() if key in RUN_FIELDS}
    )
    problem = text_problem(label, field_limit(Run, "label"))
    if problem:
        raise ImportFailed(f"label: {problem}")
    parsed = read_output(raw, importer, parameters)
    groups: dict[str, list[Point]] = {}
    for point in parsed.points:
        groups.setdefault(point.label, []).append(point)
    _check_row_limits(groups, len(parsed.points), allowance)
    publish = may_publish(user)
    runs = []
    for index, point_label in enumerate(groups):
        run_label = f"{label}: {point_label}" if point_label and label else (point_label or label)
        problem = text_problem(run_label, field_limit(Run, "label"))
        if problem:
            raise ImportFailed(f"label: with the series name from the output, {problem}")
        run = Run(
            suite=suite,
            label=run_label,
            variant={**variant, **({"series": point_label} if point_label else {})},
            uploaded_by=user,
            status=Run.Status.PUBLISHED if publish else Run.Status.DRAFT,
            **{key: value for key, value in environment.items() if key != "order"},
            order=environment.get("order", 0) + index,
        )
        _describe(run, file_name, parsed.version, parsed.metadata)
        if publish:
            missing = run.missing_provenance()
            if missing:
                raise ImportFailed(missing_provenance_message(missing))
            run.reviewed_by, run.reviewed_at = user, timezone.now()
        runs.append(run)
    stored = _store_raw(raw, file_name)
    with transaction.atomic():
        if allowance is not None and user is not None:  # again, the account's row locked
            get_user_model().objects.select_for_update().get(pk=user.pk)
            _check_allowance(submission_allowance(user), len(runs))
        # In bulk: one INSERT per batch, not a save (and a search re-index) per run.
        Run.objects.bulk_create(runs, batch_size=BULK_BATCH)
        measurements = []
        for run, group in zip(runs, groups.values(), strict=True):
            measurements += from_points(run, group, {})[0]
        Measurement.objects.bulk_create(measurements, batch_size=BULK_BATCH)
        _attach_raw(suite, runs[0], parsed.version, file_name, stored)
        # bulk_create sends no post_save: the suite's search entry is brought up to date
        # once, last, so its row is locked only until the commit.
        search_signals.saved_in_bulk(runs[0])
    return runs[0]


def _store_raw(raw: bytes, file_name: str) -> str:
    """The raw file stored ahead of its row (call it outside a transaction)."""
    field = Attachment._meta.get_field("file")
    name = field.generate_filename(None, _storable_name(file_name))
    return files.store_uncommitted(field.storage, name, ContentFile(raw))


def _attach_raw(suite: Suite, run: Run, parser: str, file_name: str, stored: str) -> None:
    attachment = Attachment(
        suite=suite,
        run=run,
        kind="raw",
        parser=parser,
        description=file_name[: field_limit(Attachment, "description")],
    )
    attachment.file.name = stored
    attachment.save()
    files.keep(attachment.file.storage, stored)


def _storable_name(file_name: str) -> str:
    """The raw file's name on disk: the last path part of the uploaded name in safe
    characters, short enough for the column (the name as sent stays in the description)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", file_name.replace("\\", "/").rsplit("/", 1)[-1])
    name = name.lstrip("._")[-60:]
    return name or "output.txt"


def add_raw_output(
    run: Run, *, raw: bytes, file_name: str, importer: str = "", parameters: object = None
) -> int:
    """Add one more raw file's points to an existing run: one sysbench file per thread
    count, or another repetition of a point the run already has."""
    parsed = read_output(raw, importer, check_tags("parameters", parameters))
    stored = _store_raw(raw, file_name)
    with transaction.atomic():
        add_points(run, parsed.points)
        _describe(run, file_name, parsed.version, parsed.metadata)
        run.save(update_fields=["details", "client"])
        _attach_raw(run.suite, run, parsed.version, file_name, stored)
    return len(parsed.points)
