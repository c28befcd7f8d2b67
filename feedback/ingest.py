"""Durable storage of incoming reports: one transaction per report.

This is the storage gateway: it knows the database, not Celery. Callers pass a
``handover(ids)`` callable that hands committed reports to processing (the service
layer passes ``feedback.tasks.enqueue_processing``); it runs once the transaction has
committed, so no report is acknowledged or processed before it is durable.

Concurrent posts share WAL flushes through PostgreSQL's own group commit
(``commit_delay``/``commit_siblings``, set by the deploy: deploy/postgresql/portal.conf).
A home-made committer thread and a WSGI bypass did this job before; measured side by
side they were not 1.5 times faster at 64 connections, so they were removed
(docs/PERFORMANCE.md).
"""

import gzip
import hashlib
import logging
from collections.abc import Callable

from django.db import transaction
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


def store_report(report: RawReport, *, handover: Handover) -> RawReport:
    """Store one report durably; returns once it is committed."""
    try:
        store_reports([report], handover=handover)
    except Exception as error:
        raise StorageUnavailable(str(error)) from error
    return report
