"""Processing is woken at most once per interval, not with one broker message per report."""

import pytest

from feedback import tasks
from feedback.models import RawReport
from tests.feedback.captures import BOUNDARY, plugin_body

UID = "BRQuphxhO/ivzmSTEp4J9xb4UxI="


@pytest.mark.django_db
def test_a_burst_of_reports_wakes_processing_once(
    client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.FEEDBACK_PROCESS_DELAY_SECONDS = 60
    monkeypatch.setattr(tasks.wake_processing, "next_at", 0.0)  # a fresh web process
    for number in range(4):
        report = f"FEEDBACK_SERVER_UID\t{UID}\x00\nFEEDBACK_WHEN\tstartup\nX\t{number}\n\n"
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(
                "POST",
                "/rest/v1/post",
                plugin_body(report),
                content_type=f"multipart/form-data; boundary={BOUNDARY}",
            )
        assert response.status_code == 200
    # Celery runs tasks eagerly in tests: the one wake ran the sweep at the first report;
    # the other three wait for the next interval's wake (or the beat sweep).
    assert list(RawReport.objects.order_by("id").values_list("status", flat=True)) == [
        "processed",
        "pending",
        "pending",
        "pending",
    ]
