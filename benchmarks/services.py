"""Publishing benchmark results: importing raw output into a run, atomically."""

import hashlib
import json
import math
import re
import secrets
import statistics

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from benchmarks import mail
from benchmarks.importers import ImportFailed, parse
from benchmarks.models import (
    MAY_BE_UNSTATED,
    Attachment,
    Measurement,
    Run,
    SubmissionToken,
    Suite,
)
from core import transitions
from core.send_limit import SendLimit
from core.uploads import declared_body_size
from outbox import queue
from search import signals as search_signals

# Raw outputs are text; the largest real one we know (sysbench with a report every
# second over an hour) is well under a megabyte.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# A multipart body carries the form fields and boundaries besides the file.
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
SIZE_MESSAGE = "The file is larger than 5 MiB."
BULK_BATCH = 1000  # rows per INSERT

RUN_FIELDS = [
    "hardware",
    "os",
    "server_version",
    "server_commit",
    "server_config",
    "client",
    "run_date",
    "notes",
    "source",
    "source_url",
    "unstated",
    "order",
]
# Free-text fields (TextField) have no column limit; these bound what a person can review.
TEXT_LIMITS = {"hardware": 2000, "server_config": 10000, "notes": 10000}
# Numbers a parameter or a figure may hold: integers exact in a float, floats finite.
LARGEST_INTEGER = 2**53
PUBLISH_PERMISSION = "benchmarks.publish_run"


class NotPublishable(Exception):
    """A run cannot be published or rejected as asked; the message says why."""


def field_limit(model, name: str) -> int | None:
    """The most characters a text field holds: its column's, or the review bound above."""
    field = model._meta.get_field(name)
    return field.max_length or TEXT_LIMITS.get(name)


def text_problem(text: str, limit: int | None) -> str | None:
    """Why a text cannot be stored as it is (None when it can)."""
    if limit is not None and len(text) > limit:
        return f"too long: at most {limit} characters, not {len(text)}"
    for character in text:
        if character in "\t\n\r":
            continue
        if ord(character) < 32 or ord(character) == 127 or 0xD800 <= ord(character) <= 0xDFFF:
            return f"has the character U+{ord(character):04X}, which text here may not hold"
    return None


def number_problem(value) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > LARGEST_INTEGER:
        return f"out of range: numbers up to {LARGEST_INTEGER:,} in size"
    if isinstance(value, float) and not math.isfinite(value):
        return "not a finite number"
    return None


def _check_storable(where: str, value, depth: int = 0) -> None:
    """Tool metadata (options, versions) as JSON the database holds: finite, bounded
    numbers, text without control characters, nesting at most 20 deep."""
    if depth > 20:
        raise ImportFailed(f"{where}: nested too deeply")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_storable(where, str(key), depth + 1)
            _check_storable(where, item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_storable(where, item, depth + 1)
    elif isinstance(value, str):
        problem = text_problem(value, 10000)
        if problem:
            raise ImportFailed(f"{where}: a text {problem}")
    elif isinstance(value, int | float):
        problem = number_problem(value)
        if problem:
            raise ImportFailed(f"{where}: {problem}")


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
        if not isinstance(item, str | int | float | bool):
            raise ImportFailed(
                f"{name}: the value of {key!r} must be a number, a string or true/false, "
                f"not {type(item).__name__}"
            )
        key_problem = text_problem(str(key), 60)
        if key_problem:
            raise ImportFailed(f"{name}: the name {str(key)[:60]!r}: {key_problem}")
        problem = text_problem(item, 200) if isinstance(item, str) else number_problem(item)
        if problem:
            raise ImportFailed(f"{name}: the value of {key!r}: {problem}")
    return value


def check_environment(environment: dict) -> dict:
    """The run's environment and provenance as the columns hold them; raises ImportFailed
    naming the field."""
    for name, value in environment.items():
        if name not in RUN_FIELDS:
            continue
        if name == "unstated":
            if not isinstance(value, list) or any(v not in MAY_BE_UNSTATED for v in value):
                raise ImportFailed(f"unstated: a list of {', '.join(MAY_BE_UNSTATED)}")
        elif name == "run_date":
            if value is not None and value > timezone.localdate():
                raise ImportFailed("run_date: a date in the future cannot have been measured")
        elif isinstance(value, str):
            problem = text_problem(value, field_limit(Run, name))
            if problem:
                raise ImportFailed(f"{name}: {problem}")
    return environment


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportFailed("the file is not UTF-8 text") from error


def _parse(raw: bytes, importer: str, parameters: dict):
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
    _check_storable("the tool's details", parsed.metadata)
    return parsed


def _check_point(point) -> None:
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


def _figure_problem(value) -> str | None:
    try:
        finite = math.isfinite(float(value))
    except (TypeError, ValueError, OverflowError):
        finite = False
    return None if finite else "not a finite number a chart can show"


def _key(metric, parameters):
    return metric, json.dumps(parameters, sort_keys=True)


SUMMARY_FIELDS = ("value", "samples", "minimum", "maximum", "median", "stddev")


def _summarise(measurement: Measurement) -> None:
    """After a repetition was added: the value is the mean of the repetitions, the spread theirs."""
    samples = measurement.samples
    measurement.value = statistics.fmean(samples)
    measurement.minimum, measurement.maximum = min(samples), max(samples)
    measurement.median = statistics.median(samples)
    measurement.stddev = statistics.stdev(samples) if len(samples) > 1 else None


def _measurements(run: Run, points, existing: dict) -> tuple[list, dict]:
    """New points become measurements (returned unsaved); a point ``existing`` already has
    (same metric and parameters: another repetition) joins that measurement's samples
    (returned by pk when it is stored)."""
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
    return new, repeated


def _store_points(run: Run, points) -> None:
    """Add points to a stored run (see ``_measurements``)."""
    existing = {_key(m.metric, m.parameters): m for m in run.measurements.all()}
    new, repeated = _measurements(run, points, existing)
    Measurement.objects.bulk_create(new, batch_size=BULK_BATCH)
    # One UPDATE per repeated point: bulk_update's single statement of CASE WHEN pk = ...
    # branches cost more to build and to run than the plain updates it replaces.
    for pk, measurement in repeated.items():
        Measurement.objects.filter(pk=pk).update(
            **{field: getattr(measurement, field) for field in SUMMARY_FIELDS}
        )


def _check_row_limits(groups: dict, points: int) -> None:
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


def _describe(run: Run, file_name: str, version: str, metadata: dict) -> None:
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


def may_publish(user) -> bool:
    """The foundation's own benchmark machines publish directly; everyone else is reviewed."""
    return user is not None and user.has_perm(PUBLISH_PERMISSION)


def may_submit(user) -> bool:
    """Who may submit a run (as a draft, unless they may publish): any active account with
    a verified e-mail address, and staff."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or may_publish(user):
        return True
    return EmailAddress.objects.filter(user=user, verified=True).exists()


def _submit_rate(group, request) -> str:
    return settings.BENCHMARK_SUBMIT_RATE


# Runs an account without publish_run may submit, through the API and the web form
# together; counted once a run is stored (core.send_limit).
SUBMIT_LIMIT = SendLimit(group="benchmarks-submit", key="user", rate=_submit_rate)


def submittable_suite(user, slug: str) -> Suite | None:
    """The suite ``user`` may submit a run to: a published one; any for staff."""
    suites = (
        Suite.objects.all() if user.is_staff or may_publish(user) else Suite.objects.published()
    )
    return suites.filter(slug=slug).first()


# Personal API tokens: "bench_" and 43 URL-safe characters; only their SHA-256 is stored.
TOKEN_PREFIX = "bench_"  # noqa: S105 - a marker, not a secret
MAX_TOKENS_PER_ACCOUNT = 20


class TokenRefused(Exception):
    """A token cannot be made as asked; the message says why."""


def _token_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def create_token(user, name: str) -> tuple[SubmissionToken, str]:
    """A new personal token for ``user``, named ``name``; returns it with its key, which is
    never stored and so can be shown only now."""
    name = (name or "").strip()
    if not name:
        raise TokenRefused("Give the token a name, such as the machine that will use it.")
    problem = text_problem(name, field_limit(SubmissionToken, "name"))
    if problem:
        raise TokenRefused(f"The name is {problem}.")
    # Locks the account's row: two requests at once cannot both pass the checks below.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    tokens = SubmissionToken.objects.active().filter(user=user)
    if tokens.filter(name=name).exists():
        raise TokenRefused(f"You already have a token named “{name}”.")
    if tokens.count() >= MAX_TOKENS_PER_ACCOUNT:
        raise TokenRefused(
            f"An account may hold at most {MAX_TOKENS_PER_ACCOUNT} tokens: revoke one first."
        )
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = SubmissionToken.objects.create(
        user=user, name=name, key_hash=_token_hash(key), prefix=key[: len(TOKEN_PREFIX) + 4]
    )
    return token, key


def revoke_token(user, token_id) -> bool:
    """Revoke one of ``user``'s tokens at once; False when they hold no such active token."""
    return bool(
        SubmissionToken.objects.active()
        .filter(user=user, pk=token_id)
        .update(revoked_at=timezone.now())
    )


def token_user(key: str):
    """The account an active personal token belongs to (None for an unknown or revoked
    key, or an inactive account); records when the token was last used."""
    token = (
        SubmissionToken.objects.active()
        .select_related("user")
        .filter(key_hash=_token_hash(key))
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    SubmissionToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.user


def _tell_uploader(run: Run, what: str) -> None:
    """The one place a review's mail to the uploader is recorded (in the outbox, in the
    review's transaction, so it leaves after the commit or not at all). Reviewers who
    review their own upload are not written to."""
    if run.uploaded_by_id is None or run.uploaded_by_id == getattr(run.reviewed_by, "pk", None):
        return
    queue.enqueue(mail.REVIEW_MAIL, run_id=run.pk, what=what, reason=run.review_note)


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
    does not parse, is incomplete, holds what the columns cannot (a 400-digit figure, a
    500-character version), or the parameters or variant are not JSON objects.
    Points that carry their own label (CSV columns, JMH benchmarks, hyperfine commands)
    become one run each, named "<label>: <point label>".

    A user with ``publish_run`` publishes at once (refused, storing nothing, when the
    provenance is incomplete); anyone else's run is a draft until staff review it.
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
    parsed = _parse(raw, importer, parameters)
    groups: dict[str, list] = {}
    for point in parsed.points:
        groups.setdefault(point.label, []).append(point)
    _check_row_limits(groups, len(parsed.points))
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
                raise ImportFailed(_missing_message(missing))
            run.reviewed_by, run.reviewed_at = user, timezone.now()
        runs.append(run)
    # In bulk: one INSERT per batch, not a save (and a search re-index of the suite) per run.
    Run.objects.bulk_create(runs, batch_size=BULK_BATCH)
    measurements = []
    for run, group in zip(runs, groups.values(), strict=True):
        measurements += _measurements(run, group, {})[0]
    Measurement.objects.bulk_create(measurements, batch_size=BULK_BATCH)
    attachment = Attachment(
        suite=suite,
        run=runs[0],
        kind="raw",
        parser=parsed.version,
        description=file_name[: field_limit(Attachment, "description")],
    )
    attachment.file.save(_storable_name(file_name), ContentFile(raw), save=True)
    # bulk_create sends no post_save: the suite's search entry is brought up to date once,
    # last, so its row is locked only until the commit.
    search_signals.saved_in_bulk(runs[0])
    return runs[0]


def _storable_name(file_name: str) -> str:
    """The raw file's name on disk: the last path part of the uploaded name in safe
    characters, short enough for the column (the name as sent stays in the description)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", file_name.replace("\\", "/").rsplit("/", 1)[-1])
    name = name.lstrip("._")[-60:]
    return name or "output.txt"


def _missing_message(missing: list[str]) -> str:
    return "cannot be published without its provenance: it lacks " + ", ".join(missing)


@transaction.atomic
def add_raw_output(run: Run, *, raw: bytes, file_name: str, importer: str = "", parameters=None):
    """Add one more raw file's points to an existing run: one sysbench file per thread
    count, or another repetition of a point the run already has."""
    parsed = _parse(raw, importer, check_tags("parameters", parameters))
    _store_points(run, parsed.points)
    _describe(run, file_name, parsed.version, parsed.metadata)
    run.save(update_fields=["details", "client"])
    attachment = Attachment(
        suite=run.suite,
        run=run,
        kind="raw",
        parser=parsed.version,
        description=file_name[: field_limit(Attachment, "description")],
    )
    attachment.file.save(_storable_name(file_name), ContentFile(raw), save=True)
    return len(parsed.points)


@transaction.atomic
def publish_run(run: Run, reviewer) -> Run:
    """Staff publish a reviewed run; refused, with what is missing, without provenance."""
    run = Run.objects.select_for_update().get(pk=run.pk)
    if run.status == Run.Status.PUBLISHED:
        return run
    missing = run.missing_provenance()
    if missing:
        raise NotPublishable(_missing_message(missing))
    run.review_note = ""
    run.reviewed_by, run.reviewed_at = reviewer, timezone.now()
    _move(run, Run.Status.PUBLISHED, reviewer)
    _tell_uploader(run, "published")
    return run


@transaction.atomic
def reject_run(run: Run, reviewer, reason: str) -> Run:
    """Staff turn a draft down; the reason is what the uploader reads. A published run
    stays published, and a rejected one keeps the reason it was given (NotPublishable)."""
    reason = (reason or "").strip()
    if not reason:
        raise NotPublishable("a rejection needs a reason the uploader can act on")
    problem = text_problem(reason, 2000)
    if problem:
        raise NotPublishable(f"the reason: {problem}")
    run = Run.objects.select_for_update().get(pk=run.pk)
    run.review_note = reason
    run.reviewed_by, run.reviewed_at = reviewer, timezone.now()
    _move(run, Run.Status.REJECTED, reviewer, reason)
    _tell_uploader(run, "rejected")
    return run


def _move(run: Run, status: str, reviewer, note: str = ""):
    """The review's status change (``Run.TRANSITIONS``), saved with the run's other changes
    and recorded as a ``RunEvent``; a change the table refuses raises NotPublishable."""
    try:
        transitions.move(run, status, actor=reviewer, note=note)
    except transitions.TransitionRefused as error:
        raise NotPublishable(str(error)) from error
