"""Demo content: the three reports a real MariaDB 10.11 server sent (captured byte for byte),
stored and processed through the same service the endpoint uses, and the labels known to
be test traffic (that server was an end-to-end test run under faketime) marked as such."""

import hashlib
from pathlib import Path

from feedback import tasks
from feedback.models import RawReport, TestTrafficRule
from feedback.services import intake, processing

DEMO_DATA = Path(__file__).resolve().parent / "demo_data"
MARKER = b"application/octet-stream\r\n\r\n"
# FEEDBACK_USER_INFO labels of test runs seen on the demo: the capture above, the capture
# and staging set-ups, and MariaDB's own test suite.
KNOWN_TEST_LABELS = {
    "faketime-e2e": "end-to-end test of the endpoint with a real mariadbd under faketime",
    "capture-test": "the set-up that captured the demo reports",
    "staging db": "the staging database server",
    "mysql-test": "MariaDB's own test suite (mysql-test-run)",
}


def captured_reports():
    for path in sorted(DEMO_DATA.glob("*.http")):
        raw = path.read_bytes()
        start = raw.index(MARKER) + len(MARKER)
        end = raw.rindex(b"----------------------------ba4f3696b39f--")
        yield raw[start:end]


def load(log):
    stored = 0
    for data in captured_reports():
        digest = hashlib.sha256(data).hexdigest()
        if RawReport.objects.filter(sha256=digest).exists():
            continue
        intake.accept_report(data, path="/rest/v1/post", handover=tasks.wake_processing)
        stored += 1
    result = processing.process_all_pending()
    for label, note in KNOWN_TEST_LABELS.items():
        TestTrafficRule.objects.get_or_create(
            kind=TestTrafficRule.Kind.LABEL, value=label, defaults={"note": note}
        )
    marked, _ = processing.apply_test_traffic_rules()
    log(
        f"feedback: {stored} captured reports stored, {result.processed} processed, "
        f"{marked} marked as test traffic"
    )
