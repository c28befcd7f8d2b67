"""Durable storage of incoming reports, with group commit.

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
import logging
import queue
import threading
from dataclasses import dataclass, field

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from feedback.models import RawReport

logger = logging.getLogger(__name__)


class StorageUnavailable(Exception):
    """The report could not be committed; the client should retry later."""


def build_raw_report(data: bytes, *, path: str, is_test: bool, country: str = "") -> RawReport:
    return RawReport(
        received_at=timezone.now(),
        path=path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        body_gz=gzip.compress(data, compresslevel=5),
        is_test=is_test,
        country=country,
    )


def store_reports(reports: list[RawReport]) -> list[RawReport]:
    """Insert reports in one transaction and enqueue their processing after commit."""
    from feedback.tasks import process_raw_reports

    with transaction.atomic():
        digests = {report.sha256 for report in reports}
        # One indexed EXISTS per distinct digest: constant cost however often a report was resent.
        seen = {digest for digest in digests if RawReport.objects.filter(sha256=digest).exists()}
        for report in reports:
            report.is_resend = report.sha256 in seen
            seen.add(report.sha256)
        RawReport.objects.bulk_create(reports)
        ids = [report.pk for report in reports]
        transaction.on_commit(lambda: _enqueue_processing(process_raw_reports, ids))
    return reports


def _enqueue_processing(task, ids):
    try:
        task.delay(ids)
    except Exception:  # the broker is down: the beat sweep processes pending reports later
        logger.warning("could not enqueue processing of %d reports; left pending", len(ids))


@dataclass
class _Pending:
    report: RawReport
    done: threading.Event = field(default_factory=threading.Event)
    error: Exception | None = None


class GroupCommitter:
    """One per process: batches the reports of concurrent requests into one commit."""

    def __init__(self, max_batch: int = 256):
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Pending] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.commits = 0
        self.reports = 0

    def submit(self, report: RawReport, timeout: float) -> RawReport:
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
            batch = [self._queue.get()]
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self._commit(batch)

    def _commit(self, batch: list[_Pending]):
        try:
            store_reports([pending.report for pending in batch])
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
            close_old_connections()


_committer = GroupCommitter()


def group_commit_enabled() -> bool:
    setting = str(getattr(settings, "FEEDBACK_GROUP_COMMIT", "auto")).lower()
    if setting == "auto":
        return connection.vendor == "postgresql" and not settings.CELERY_TASK_ALWAYS_EAGER
    return setting in {"true", "1", "yes", "on"}


def store_report(report: RawReport) -> RawReport:
    """Store one report durably; returns once it is committed."""
    if group_commit_enabled():
        return _committer.submit(report, timeout=getattr(settings, "FEEDBACK_COMMIT_TIMEOUT", 15))
    try:
        store_reports([report])
    except Exception as error:
        raise StorageUnavailable(str(error)) from error
    return report


def committer_stats() -> dict[str, int]:
    return {"commits": _committer.commits, "reports": _committer.reports}
