"""Accepting a report on the request path: checked as processing would, stored durably."""

from feedback.ingest import Handover, build_raw_report, store_report
from feedback.models import RawReport
from feedback.parser import check_report


def accept_report(data: bytes, *, path: str, handover: Handover, country: str = "") -> RawReport:
    """Check a report as processing's parser would (``check_report``), then store it
    durably.

    Raises ReportError (nothing stored) for a body processing would reject, and
    feedback.ingest.StorageUnavailable when the database cannot commit it.
    ``handover(ids)`` gets the ids once committed (the caller's way to wake processing).
    Only the bytes are stored: processing parses them again, in a batch, off the
    request path (cheaper than storing the parse beside them, docs/PERFORMANCE.md).
    """
    is_test = check_report(data)
    raw = build_raw_report(data, path=path, is_test=is_test, country=country)
    return store_report(raw, handover=handover)
