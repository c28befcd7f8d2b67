"""Processing stored reports: parsing them into Report rows in batches, reprocessing after a
parser fix, and marking test traffic by the rules staff keep."""

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone

from core import transitions
from core.outage import OUTAGE_ERRORS
from feedback.labels import names_test_traffic
from feedback.models import RawReport, Report, Server, TestTrafficRule
from feedback.parser import ParsedReport, ReportError, parse_report

logger = logging.getLogger(__name__)


@dataclass
class ProcessingResult:
    processed: int = 0
    rejected: int = 0

    @property
    def total(self) -> int:
        return self.processed + self.rejected


def process_pending(batch_size: int = 500, ids: Iterable[int] | None = None) -> ProcessingResult:
    """Parse pending raw reports into Report rows, one batch in one transaction.

    Rows are claimed with SELECT ... FOR UPDATE SKIP LOCKED, so any number of
    workers may run this at once; a report is processed exactly once. A report with the
    same content as an earlier one (a lower id) is flagged ``is_resend`` here, one query
    for the batch, rather than by a lookup in every request's insert. Every claimed
    report leaves the pending state in this pass: a report the parser or the database
    refuses is rejected with the reason (its bytes kept) and the rest of the batch is
    stored, so the sweep can never pick the same failing rows again. A database that goes
    away (``core.outage.OUTAGE_ERRORS``: a lost connection, a shutdown) refuses nothing:
    the error is raised, the batch rolls back and stays pending for the next run.
    """
    result = ProcessingResult()
    with transaction.atomic():
        pending = RawReport.objects.pending()
        if ids is not None:
            pending = pending.filter(pk__in=ids)
        raws = list(
            pending.select_for_update(skip_locked=True)
            .order_by("id")
            .only("id", "received_at", "body", "is_test", "country", "status")[:batch_size]
        )
        if not raws:
            return result
        resent = set(
            RawReport.objects.filter(pk__in=[raw.pk for raw in raws])
            .resent()
            .values_list("pk", flat=True)
        )
        parsed: list[tuple[RawReport, ParsedReport]] = []
        now = timezone.now()
        for raw in raws:
            raw.processed_at = now
            try:
                parsed.append((raw, parse_report(bytes(raw.body))))
            except ReportError as error:
                _reject(raw, str(error))
        try:
            with transaction.atomic():  # a savepoint: one statement for the whole batch
                _write_reports(parsed)
        except OUTAGE_ERRORS:
            raise  # the database went away: the batch stays pending for the next run
        except Exception:
            # Something the parser let through was refused (or hit a bug): find the report
            # by storing one at a time, so that the rest of the batch is stored anyway.
            for raw, report in parsed:
                try:
                    with transaction.atomic():
                        _write_reports([(raw, report)])
                except OUTAGE_ERRORS:
                    raise  # not a refusal of this report: nothing is rejected for it
                except DatabaseError as error:
                    logger.warning("feedback report %s refused by the database", raw.pk)
                    _reject(raw, f"the database refused it: {error}")
                except Exception as error:  # a bug must not wedge the sweep either
                    logger.exception("feedback report %s could not be stored", raw.pk)
                    _reject(raw, f"processing failed: {error!r}")
        for raw in raws:
            raw.is_resend = raw.pk in resent
            if transitions.may(raw, "accept"):
                transitions.step(raw, "accept")
                raw.rejection_reason = ""
                result.processed += 1
            else:
                result.rejected += 1
        RawReport.objects.bulk_update(
            raws, ["status", "rejection_reason", "processed_at", "is_resend"]
        )
    return result


def _reject(raw: RawReport, reason: str) -> None:
    transitions.step(raw, "reject")
    raw.rejection_reason = reason.replace("\x00", "")[:500]


def _write_reports(parsed: list[tuple[RawReport, ParsedReport]]) -> None:
    servers = _upsert_servers(parsed)
    labels, uids = TestTrafficRule.objects.labels(), TestTrafficRule.objects.server_uids()
    Report.objects.bulk_create(
        [
            report_row(
                report,
                server=servers[report.server_uid],
                received_at=raw.received_at,
                is_test=raw.is_test
                or names_test_traffic(report.user_info, labels)
                or report.server_uid in uids,
                country=raw.country,
                raw=raw,
            )
            for raw, report in parsed
        ]
    )


def process_all_pending(
    batch_size: int = 500, progress: Callable[[int], object] | None = None
) -> ProcessingResult:
    total = ProcessingResult()
    while True:
        result = process_pending(batch_size)
        if result.total == 0:
            return total
        total.processed += result.processed
        total.rejected += result.rejected
        if progress:
            progress(result.total)


def _upsert_servers(parsed: list[tuple[RawReport, ParsedReport]]) -> dict[str, Server]:
    if not parsed:
        return {}
    seen: dict[str, dict[str, Any]] = {}
    for raw, report in parsed:
        entry = seen.setdefault(
            report.server_uid,
            {"first": raw.received_at, "last": raw.received_at, "count": 0, "version": ("", None)},
        )
        entry["first"] = min(entry["first"], raw.received_at)
        entry["last"] = max(entry["last"], raw.received_at)
        entry["count"] += 1
        if report.version and (
            entry["version"][1] is None or raw.received_at >= entry["version"][1]
        ):
            entry["version"] = (report.version, raw.received_at)

    Server.objects.bulk_create(
        [Server(uid=uid, first_seen=e["first"], last_seen=e["last"]) for uid, e in seen.items()],
        ignore_conflicts=True,
    )
    servers = {s.uid: s for s in Server.objects.select_for_update().filter(uid__in=list(seen))}
    for uid, entry in seen.items():
        server = servers[uid]
        server.first_seen = min(server.first_seen, entry["first"])
        newer = entry["last"] >= server.last_seen
        server.last_seen = max(server.last_seen, entry["last"])
        if entry["version"][0] and (newer or not server.latest_version):
            server.latest_version = entry["version"][0]
        server.reports_count += entry["count"]
    Server.objects.bulk_update(
        servers.values(), ["first_seen", "last_seen", "latest_version", "reports_count"]
    )
    return servers


def report_row(
    report: ParsedReport,
    *,
    server: Server,
    received_at: datetime,
    is_test: bool,
    country: str = "",
    raw: RawReport | None = None,
) -> Report:
    """The Report row for a parsed report (unsaved)."""
    return Report(
        raw=raw,
        country=country,
        server=server,
        received_at=received_at,
        kind=report.kind,
        is_test=is_test or report.is_test,
        user_info=report.user_info[:200],
        version=report.version,
        version_major=report.version_major,
        version_minor=report.version_minor,
        version_patch=report.version_patch,
        version_suffix=report.version_suffix,
        os=report.os,
        os_release=report.os_release,
        distribution=report.distribution,
        architecture=report.architecture,
        cpu_count=report.cpu_count,
        memory_bytes=report.memory_bytes,
        thread_handling=report.thread_handling,
        engines=report.engines,
        plugins=report.plugins,
        features=report.features,
        collations=report.collations,
        extra=report.extra,
    )


def reprocess(raw_ids: Collection[int]) -> ProcessingResult:
    """Parse stored reports again (after a parser fix): staff action in the admin."""
    with transaction.atomic():
        Report.objects.filter(raw_id__in=raw_ids).delete()
        transitions.step_all(
            RawReport.objects.filter(pk__in=raw_ids),
            "reprocess",
            rejection_reason="",
            processed_at=None,
        )
    return process_pending(batch_size=len(raw_ids) or 1, ids=raw_ids)


def apply_test_traffic_rules() -> tuple[int, int]:
    """Mark every report as test traffic or not by the rules staff keep (and MariaDB's own
    test suite's label); returns (newly marked, no longer marked). The rollups notice the
    rules changed (``feedback.trends.rollups``) and count again."""
    labels = TestTrafficRule.objects.labels()
    # The rule is compared in Python (feedback.labels), over the few distinct labels: the
    # database's lower() and trim() read case and spacing otherwise.
    named = [
        label
        for label in Report.objects.values_list("user_info", flat=True).distinct()
        if names_test_traffic(label, labels)
    ]
    marked = Q(user_info__in=named) | Q(server__uid__in=TestTrafficRule.objects.server_uids())
    reports = Report.objects.all()
    with transaction.atomic():
        added = reports.filter(marked, is_test=False).update(is_test=True)
        removed = reports.filter(~marked, is_test=True).update(is_test=False)
    return added, removed
