"""Durable storage of incoming reports, with group commit.

This is the storage gateway: it knows the database, not Celery. Callers pass a
``handover(ids)`` callable that hands committed reports to processing (the service
layer passes ``feedback.tasks.enqueue_processing``).

``store_reports`` inserts a list of raw reports in one transaction. Under
PostgreSQL the endpoint does not call it per request: each web process runs one
``GroupCommitter`` thread that takes every report waiting at that moment, inserts
them with one multi-row INSERT and one COMMIT (one WAL flush), and only then wakes
the request threads, which answer ``<h1>ok</h1>``. Concurrent requests therefore
share a commit, and no request is acknowledged before its report is durable.
"""

import contextlib
import gzip
import hashlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from feedback.models import RawReport

logger = logging.getLogger(__name__)

Handover = Callable[[list[int]], None]


class StorageUnavailable(Exception):
    """The report could not be committed; the client should retry later."""


def build_raw_report(
    data: bytes, *, path: str, is_test: bool, country: str = "", parsed: dict | None = None
) -> RawReport:
    return RawReport(
        received_at=timezone.now(),
        path=path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        body_gz=gzip.compress(data, compresslevel=1),
        is_test=is_test,
        country=country,
        parsed=parsed,
    )


def store_reports(reports: list[RawReport], *, handover: Handover | None = None) -> list[RawReport]:
    """Insert reports in one transaction; ``handover(ids)`` runs once they are committed."""
    with transaction.atomic():
        digests = {report.sha256 for report in reports}
        # One indexed EXISTS per distinct digest: constant cost however often a report was resent.
        seen = {digest for digest in digests if RawReport.objects.filter(sha256=digest).exists()}
        for report in reports:
            report.is_resend = report.sha256 in seen
            seen.add(report.sha256)
        RawReport.objects.bulk_create(reports)
        ids = [report.pk for report in reports]
        if handover is not None:
            transaction.on_commit(lambda: handover(ids))
    return reports


_INSERT_MARKING_RESENDS = """
    INSERT INTO {table} (received_at, path, size, sha256, body_gz, is_test, country, parsed,
                         status, rejection_reason, is_resend)
    SELECT v.received_at, v.path, v.size, v.sha256, v.body_gz, v.is_test, v.country, v.parsed,
           'pending', '',
           v.resent_in_batch OR EXISTS (SELECT 1 FROM {table} AS earlier
                                        WHERE earlier.sha256 = v.sha256)
    FROM (VALUES {rows}) AS v(received_at, path, size, sha256, body_gz, is_test, country,
                              parsed, resent_in_batch)
    RETURNING id, is_resend
"""
_ROW = "(%s::timestamptz, %s, %s::integer, %s, %s::bytea, %s::boolean, %s, %s::jsonb, %s::boolean)"


def store_reports_in_one_statement(reports: list[RawReport]) -> list[RawReport]:
    """PostgreSQL, outside any transaction: the same result as ``store_reports`` in one
    round trip. A single INSERT in autocommit mode is its own transaction, so the
    reports are durable when it returns, and the resend check runs inside it. The caller
    enqueues their processing."""
    seen_in_batch: set[str] = set()
    params: list = []
    for report in reports:
        params += [report.received_at, report.path, report.size, report.sha256,
                   report.body_gz, report.is_test, report.country,
                   None if report.parsed is None else json.dumps(report.parsed),
                   report.sha256 in seen_in_batch]  # fmt: skip
        seen_in_batch.add(report.sha256)
    sql = _INSERT_MARKING_RESENDS.format(
        table=RawReport._meta.db_table, rows=", ".join([_ROW] * len(reports))
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        returned = cursor.fetchall()
    # RETURNING gives the rows in insert order, which Django's bulk_create relies on too.
    for report, (pk, is_resend) in zip(reports, returned, strict=True):
        report.pk, report.is_resend = pk, is_resend
    return reports


@dataclass
class _Pending:
    report: RawReport | None  # None asks the thread to hand over and release its connection
    done: threading.Event = field(default_factory=threading.Event)
    error: Exception | None = None


class GroupCommitter:
    """One per process: batches the reports of concurrent requests into one commit.

    Its thread keeps one database connection for the life of the process, whatever
    CONN_MAX_AGE says: opening a PostgreSQL connection per batch cost more than the
    batch itself. After a failed commit the connection is closed, so the next batch
    reconnects (and a database that came back is picked up again).
    """

    def __init__(self, max_batch: int = 256, enqueue_every: float = 0.5):
        self.max_batch = max_batch
        self.enqueue_every = enqueue_every
        self._unenqueued_ids: list[int] = []
        self._handover: Handover | None = None
        self._enqueued_at = 0.0
        self._queue: queue.SimpleQueue[_Pending] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.commits = 0
        self.reports = 0

    def submit(self, report: RawReport, timeout: float, handover: Handover) -> RawReport:
        self._handover = handover
        self._ensure_running()
        pending = _Pending(report)
        self._queue.put(pending)
        if not pending.done.wait(timeout):
            raise StorageUnavailable("timed out waiting for the commit")
        if pending.error is not None:
            raise StorageUnavailable(str(pending.error)) from pending.error
        return pending.report

    def _ensure_running(self):
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="feedback-group-commit", daemon=True
                )
                self._thread.start()

    def _run(self):
        while True:
            try:
                first = self._queue.get(
                    timeout=self.enqueue_every if self._unenqueued_ids else None
                )
            except queue.Empty:  # quiet now: hand over what is waiting
                self._enqueue_committed()
                continue
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            releases = [pending for pending in batch if pending.report is None]
            batch = [pending for pending in batch if pending.report is not None]
            if batch:
                self._commit(batch)
            if releases or time.monotonic() - self._enqueued_at >= self.enqueue_every:
                self._enqueue_committed()
            if releases:
                connection.close()
                for pending in releases:
                    pending.done.set()

    def release(self, timeout: float = 10):
        """Hand over what was committed and close the thread's database connection.

        Called when a gunicorn worker exits (config/gunicorn.py) and by tests; the next
        report opens a new connection.
        """
        if self._thread is None or not self._thread.is_alive():
            return
        pending = _Pending(None)
        self._queue.put(pending)
        pending.done.wait(timeout)

    def _enqueue_committed(self):
        """One processing task for everything committed since the last one.

        Enqueueing per batch cost more CPU than the batch's INSERT. Reports committed but
        not yet enqueued when a process dies are durable; the beat sweep processes them.
        """
        ids, self._unenqueued_ids = self._unenqueued_ids, []
        self._enqueued_at = time.monotonic()
        if ids and self._handover is not None:
            self._handover(ids)

    def _commit(self, batch: list[_Pending]):
        try:
            reports = [pending.report for pending in batch]
            if connection.vendor == "postgresql" and connection.get_autocommit():
                store_reports_in_one_statement(reports)
            else:
                store_reports(reports)
            self._unenqueued_ids.extend(report.pk for report in reports)
            self.commits += 1
            self.reports += len(batch)
        except Exception as error:  # answer every waiting request, then reconnect next time
            logger.error("group commit of %d reports failed: %s", len(batch), error)
            for pending in batch:
                pending.error = error
            with contextlib.suppress(Exception):  # the connection is already broken
                connection.close()
        finally:
            for pending in batch:
                pending.done.set()


_committer = GroupCommitter()


def group_commit_enabled() -> bool:
    setting = str(settings.FEEDBACK_GROUP_COMMIT).lower()
    if setting == "auto":
        return connection.vendor == "postgresql" and not settings.CELERY_TASK_ALWAYS_EAGER
    return setting in {"true", "1", "yes", "on"}


def store_report(report: RawReport, *, handover: Handover) -> RawReport:
    """Store one report durably; returns once it is committed."""
    if group_commit_enabled():
        return _committer.submit(report, settings.FEEDBACK_COMMIT_TIMEOUT, handover)
    try:
        store_reports([report], handover=handover)
    except Exception as error:
        raise StorageUnavailable(str(error)) from error
    return report


def release_committer():
    _committer.release()


def committer_stats() -> dict[str, int]:
    return {"commits": _committer.commits, "reports": _committer.reports}
