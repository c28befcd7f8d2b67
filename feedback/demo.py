"""Demo content: the three reports a real MariaDB 10.11 server sent (captured byte for byte),
stored and processed through the same service the endpoint uses."""

import hashlib
from pathlib import Path

from feedback import services, tasks
from feedback.models import RawReport

DEMO_DATA = Path(__file__).resolve().parent / "demo_data"
MARKER = b"application/octet-stream\r\n\r\n"


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
        services.accept_report(data, path="/rest/v1/post", handover=tasks.enqueue_processing)
        stored += 1
    result = services.process_all_pending()
    log(f"feedback: {stored} captured reports stored, {result.processed} processed")
