"""Durable storage of incoming reports: the reports of concurrent requests committed
together, one statement and one commit per batch.

This is the storage gateway: it knows the database, not Celery. Callers pass a
``handover(ids)`` callable that wakes processing (the endpoint passes
``feedback.tasks.wake_processing``); it runs once the reports are committed, so no
report is acknowledged or processed before it is durable.

A report is stored once: its bytes as sent (PostgreSQL compresses the column with lz4,
migration 0006) and what identifies it (size, sha256); processing parses the bytes and
flags resends (docs/feedback.md): a lookup of the digest in every month's index, in
every request's insert, had cost PostgreSQL about as much as the insert itself.

Group commit (``GroupCommit``): a request whose report arrives while no batch is being
written writes its own, on its own connection. Reports that arrive while a batch commits
(a WAL flush, about a millisecond) wait; the first of them then writes all of them in
one multi-row INSERT and one commit, and every request waits for its own batch's commit
before it answers. Nothing is answered before it is durable, and a
process killed mid-batch has answered none of that batch. One request at a time (tests,
`make run`) takes the same path with batches of one.

On PostgreSQL the table is partitioned by month (``feedback.partitions``).
"""

import hashlib
import logging
import threading
from collections.abc import Callable
from contextlib import contextmanager
from functools import partial

import psycopg
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from feedback import partitions
from feedback.models import RawReport

logger = logging.getLogger(__name__)

Handover = Callable[[list[int]], None]

COLUMNS = (
    "received_at",
    "path",
    "size",
    "sha256",
    "body",
    "is_test",
    "is_resend",  # False: processing flags resends
    "country",
    "status",
    "rejection_reason",
)
TABLE = RawReport._meta.db_table


def _row_sql(body_placeholder: str) -> str:
    """One row of the batch."""
    placeholders = [body_placeholder if column == "body" else "%s" for column in COLUMNS]
    return f"({', '.join(placeholders)})"


class StorageUnavailable(Exception):
    """The report could not be committed; the client should retry later."""


def build_raw_report(data: bytes, *, path: str, is_test: bool, country: str = "") -> RawReport:
    return RawReport(
        received_at=timezone.now(),
        path=path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        body=data,
        is_test=is_test,
        country=country,
    )


class _Slot:
    """One waiting report: its request's thread sleeps on ``ready`` until its batch is
    committed (or failed), or until it is asked to write the next batch (``lead``).

    ``ready`` is a bare lock, taken when the slot is made and released to wake the
    waiter: the primitive ``threading.Event`` is built on, without its condition
    variable (which cost as much again, for one waiter that is woken once)."""

    __slots__ = ("error", "handover", "lead", "ready", "report")

    def __init__(self, report: RawReport, handover: Handover | None):
        self.report = report
        self.handover = handover
        self.ready = threading.Lock()
        self.ready.acquire()
        self.lead = False
        self.error: BaseException | None = None

    def wait(self):
        self.ready.acquire()

    def wake(self):
        self.ready.release()


class GroupCommit:
    """Writes the reports of concurrent requests of one process in shared commits.

    Invariant: while reports wait, exactly one thread is writing a batch or has been
    asked to write the next one; so nobody waits for a batch nobody will write.
    """

    def __init__(self, write: Callable[[list[_Slot]], None]):
        self._write = write
        self._lock = threading.Lock()
        self._waiting: list[_Slot] = []
        self._writing = False

    def submit(self, report: RawReport, handover: Handover | None) -> None:
        """Returns once ``report`` is committed; raises what writing its batch raised."""
        slot = _Slot(report, handover)
        with self._lock:
            self._waiting.append(slot)
            slot.lead = not self._writing
            self._writing = True
        if not slot.lead:
            slot.wait()
        if slot.lead:
            self._write_next_batch(slot)
        if slot.error is not None:
            raise slot.error

    def _write_next_batch(self, own: _Slot):
        with self._lock:
            limit = settings.FEEDBACK_MAX_BATCH
            batch, self._waiting = self._waiting[:limit], self._waiting[limit:]
        for slot in batch:  # until the write returns, nothing in the batch is stored
            slot.error = StorageUnavailable("the batch was not written")
        try:
            self._write(batch)
            for slot in batch:
                slot.error = None
        except Exception as error:
            # The writer's own request raises the error itself; the others answer that
            # storage is unavailable (their clients send the report again later).
            for slot in batch:
                slot.error = error if slot is own else StorageUnavailable(str(error))
        finally:
            with self._lock:
                if self._waiting:
                    following = self._waiting[0]
                    following.lead = True
                    following.wake()
                else:
                    self._writing = False
            for slot in batch:
                if slot is not own:
                    slot.wake()
        if own.error is None:
            _hand_over(batch)


def _hand_over(batch: list[_Slot]) -> None:
    """Give the committed reports' ids to their handovers (waking processing), once the
    batch's requests are answered and the next batch has its writer: a handover that
    waits (a frozen broker) then holds up its own request alone."""
    for handover in {slot.handover for slot in batch if slot.handover is not None}:
        ids = [slot.report.pk for slot in batch if slot.handover is handover]
        transaction.on_commit(partial(handover, ids))


def _write_batch(slots: list[_Slot]) -> None:
    """Insert the batch in one statement and commit it; if its month has no partition
    yet (the daily task keeps months ready; should it not have run, or the clock have
    moved past them), make the month's partition and insert again.

    Inside a caller's transaction (a test, an import, ``load_demo``) the insert runs in a
    savepoint, so that the refused statement does not abort that transaction; outside
    one (the endpoint) it is a statement of its own, with no extra round trip."""
    reports = [slot.report for slot in slots]
    try:
        try:
            if connection.in_atomic_block:
                with transaction.atomic(savepoint=True):
                    _insert(reports)
            else:
                _insert(reports)
        except IntegrityError as error:
            if not _no_partition(error):
                raise
            logger.warning("feedback: no partition for %s; creating it", reports[0].received_at)
            partitions.create_partitions(connection, [report.received_at for report in reports])
            _insert(reports)
    except DatabaseError as error:
        raise StorageUnavailable(str(error)) from error


def _insert(reports: list[RawReport]):
    """One statement (atomic by itself: no transaction of its own around it)."""
    params = []
    for report in reports:
        values = [getattr(report, column) for column in COLUMNS]
        values[0] = connection.ops.adapt_datetimefield_value(report.received_at)
        params += values
    binary = connection.vendor == "postgresql"
    row = _row_sql("%b" if binary else "%s")
    sql = (
        f"INSERT INTO {TABLE} ({', '.join(COLUMNS)})"  # noqa: S608 - fixed names
        f" VALUES {', '.join([row] * len(reports))} RETURNING id"
    )
    with _cursor(binary) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    for report, (pk,) in zip(reports, rows, strict=True):
        report.pk = pk
        report._state.adding = False


@contextmanager
def _cursor(binary: bool):
    """Django's cursor, or on PostgreSQL a psycopg cursor that binds parameters on the
    server, so that the report's bytes travel as they are (Django's cursors bind on the
    client, escaping 25 KB of bytes into 50 KB of hex text first). Errors are Django's."""
    if not binary:
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield cursor


def _no_partition(error: IntegrityError) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == partitions.NO_PARTITION_SQLSTATE


GROUP_COMMIT = GroupCommit(_write_batch)


def store_report(report: RawReport, *, handover: Handover | None = None) -> RawReport:
    """Store one report durably (the endpoint's path); returns once it is committed."""
    GROUP_COMMIT.submit(report, handover)
    return report


def store_reports(reports: list[RawReport], *, handover: Handover | None = None) -> list[RawReport]:
    """Insert a batch in one transaction (demo data, benchmarks, imports); the months
    the batch falls in get their partitions first. ``handover(ids)`` runs once committed."""
    partitions.create_partitions(connection, [report.received_at for report in reports])
    with transaction.atomic():
        RawReport.objects.bulk_create(reports)
        ids = [report.pk for report in reports]
        if handover is not None:
            transaction.on_commit(lambda: handover(ids))
    return reports
