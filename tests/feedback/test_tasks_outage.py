"""PostgreSQL unreachable while processing tasks are queued (issue 34: a 22 s outage wrote
1,905 ERROR lines, a 9.4 KB traceback per queued task): one short line when the outage
starts, one when it ends, and the reports are processed once the database is back."""

import logging
import re
import socket

import psycopg
import pytest
from django.db import connection
from django.test import Client

from feedback import tasks
from feedback import views as feedback_views
from feedback.models import RawReport
from feedback.services import processing
from feedback.trends.synthetic import full_report
from tests.feedback.factories import RawReportFactory
from tests.feedback.test_endpoint import BOUNDARY, multipart

pytestmark = pytest.mark.django_db(transaction=True)
QUEUED = 25


@pytest.fixture
def outage_state():
    outage = getattr(tasks, "DATABASE_OUTAGE", None)
    if outage is not None:
        outage.down_since = None
    yield
    if outage is not None:
        outage.down_since = None


class Database:
    """``cut()`` points the connection at a port nothing listens on (real connection
    errors, as when PostgreSQL is down); ``restore()`` brings it back."""

    def __init__(self):
        self.settings_dict = connection.settings_dict
        self.port = self.settings_dict["PORT"]

    def cut(self):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            closed_port = sock.getsockname()[1]
        connection.close()
        self.settings_dict["PORT"] = str(closed_port)

    def restore(self):
        connection.close()
        self.settings_dict["PORT"] = self.port


@pytest.fixture
def database():
    database = Database()
    try:
        yield database
    finally:
        database.restore()


def test_a_database_outage_is_two_short_lines_and_the_reports_wait_for_the_sweep(
    caplog, outage_state, database
):
    RawReportFactory.create_batch(3)
    database.cut()
    with caplog.at_level(logging.INFO):
        queued = [tasks.process_pending_reports.apply() for _ in range(QUEUED)]
        database.restore()
        sweep = tasks.process_pending_reports.apply()
    assert [result.successful() for result in queued] == [True] * len(queued)
    assert {result.result["left_pending"] for result in queued} == {True}
    assert sweep.successful() and sweep.result["processed"] == 3
    assert set(RawReport.objects.values_list("status", flat=True)) == {"processed"}
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.WARNING]
    assert [level for level, _ in lines] == ["WARNING", "WARNING"], lines
    assert lines[0][1] == (
        "database unavailable (OperationalError): feedback reports left pending for the sweep"
    )
    assert lines[1][1].startswith("database available again after ")
    assert not any(r.exc_info for r in caplog.records)


def _terminate_own_connection():
    """What PostgreSQL going away does to a connection in use: the server ends it."""
    pid = connection.connection.info.backend_pid
    db = connection.settings_dict
    dsn = f"postgresql://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_database_lost_while_storing_a_batch_refuses_no_report(caplog, outage_state, monkeypatch):
    """Issue 47, item 12: a 20 s outage wrote 500 warnings "refused by the database" (an
    OperationalError read as a refusal of each report) for reports retried and stored."""
    RawReportFactory.create_batch(5)
    write = processing._write_reports
    cuts = []

    def write_with_the_database_lost(parsed):
        if not cuts:
            cuts.append(True)
            _terminate_own_connection()
        return write(parsed)

    monkeypatch.setattr(processing, "_write_reports", write_with_the_database_lost)
    with caplog.at_level(logging.INFO):
        result = tasks.process_pending_reports.apply()
        connection.close()
        assert result.result == {"processed": 0, "rejected": 0, "left_pending": True}
        assert set(RawReport.objects.values_list("status", "rejection_reason")) == {("pending", "")}
        monkeypatch.setattr(processing, "_write_reports", write)  # the database is back
        assert tasks.process_pending_reports.apply().result["processed"] == 5
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [line for line in lines if "refused" in line], lines
    assert len(lines) == 2 and lines[0].startswith("database unavailable"), lines


def test_reports_answered_503_in_an_outage_are_two_lines_not_one_each(
    caplog, database, monkeypatch
):
    """Issue 47, item 12: one 20 s outage wrote 2,399 identical "report not stored" lines."""
    # As if this process had stored every report so far (an earlier test's 503 is forgotten).
    monkeypatch.setattr(feedback_views.STORAGE_OUTAGE, "down_since", None)
    monkeypatch.setattr(feedback_views.STORAGE_OUTAGE, "failures", 0)
    body = full_report(1)
    with caplog.at_level(logging.INFO):
        database.cut()
        statuses = [post_body(body).status_code for _ in range(30)]
        database.restore()
        statuses.append(post_body(body).status_code)
    assert statuses == [503] * 30 + [200]
    lines = [r.getMessage() for r in caplog.records if r.name == "feedback.views"]
    assert lines[0].startswith("feedback storage unavailable (StorageUnavailable)")
    assert re.fullmatch(
        r"feedback storage available again after [0-9.]+ s \(30 reports answered 503 meanwhile\)",
        lines[1],
    )
    assert len(lines) == 2


def post_body(body: bytes):
    return Client().generic(
        "POST",
        "/rest/v1/post",
        multipart(body),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
