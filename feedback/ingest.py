"""Durable storage of incoming reports: one statement, one commit per report.

This is the storage gateway: it knows the database, not Celery. Callers pass a
``handover(ids)`` callable that wakes processing (the endpoint passes
``feedback.tasks.wake_processing``); it runs once the report is committed, so no
report is acknowledged or processed before it is durable.

A report is stored once: its bytes, gzip-compressed, and what identifies it (size,
sha256); processing parses the bytes (docs/feedback.md). The endpoint's insert is a
single statement in autocommit, which PostgreSQL commits (``synchronous_commit = on``)
before it returns, with the resend flag computed in the same statement. Concurrent posts
share WAL flushes through PostgreSQL's own group commit (``commit_delay``, set by the
deploy: deploy/postgresql/portal.conf).

On PostgreSQL the table is partitioned by month (``feedback.partitions``).
"""

import gzip
import hashlib
import logging
from collections.abc import Callable

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
    "body_gz",
    "is_test",
    "country",
    "status",
    "rejection_reason",
)
# The report and whether the same bytes were stored before, in one statement.
INSERT_ONE = (
    f"INSERT INTO {RawReport._meta.db_table} ({', '.join(COLUMNS)}, is_resend)"  # noqa: S608 - fixed names
    f" VALUES ({', '.join(['%s'] * len(COLUMNS))},"
    f" EXISTS (SELECT 1 FROM {RawReport._meta.db_table} WHERE sha256 = %s))"
    " RETURNING id, is_resend"
)


class StorageUnavailable(Exception):
    """The report could not be committed; the client should retry later."""


def build_raw_report(data: bytes, *, path: str, is_test: bool, country: str = "") -> RawReport:
    return RawReport(
        received_at=timezone.now(),
        path=path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        body_gz=gzip.compress(data, compresslevel=1),
        is_test=is_test,
        country=country,
    )


def store_report(report: RawReport, *, handover: Handover | None = None) -> RawReport:
    """Store one report durably (the endpoint's path); returns once it is committed."""
    try:
        try:
            _insert(report)
        except IntegrityError as error:
            if not _no_partition(error) or connection.in_atomic_block:
                raise
            # The daily task keeps months ready; should it not have run, make the month.
            logger.warning("feedback: no partition for %s; creating it", report.received_at)
            partitions.create_partitions(connection, [report.received_at])
            _insert(report)
    except DatabaseError as error:
        raise StorageUnavailable(str(error)) from error
    if handover is not None:
        transaction.on_commit(lambda: handover([report.pk]))
    return report


def _insert(report: RawReport):
    values = [getattr(report, column) for column in COLUMNS]
    values[0] = connection.ops.adapt_datetimefield_value(report.received_at)
    with connection.cursor() as cursor:
        cursor.execute(INSERT_ONE, [*values, report.sha256])
        report.pk, report.is_resend = cursor.fetchone()
    report.is_resend = bool(report.is_resend)
    report._state.adding = False


def _no_partition(error: IntegrityError) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == partitions.NO_PARTITION_SQLSTATE


def store_reports(reports: list[RawReport], *, handover: Handover | None = None) -> list[RawReport]:
    """Insert a batch in one transaction (demo data, benchmarks, imports); the months
    the batch falls in get their partitions first. ``handover(ids)`` runs once committed."""
    partitions.create_partitions(connection, [report.received_at for report in reports])
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
