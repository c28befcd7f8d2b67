"""PostgreSQL unreachable while processing tasks are queued (issue 34: a 22 s outage wrote
1,905 ERROR lines, a 9.4 KB traceback per queued task): one short line when the outage
starts, one when it ends, and the reports are processed once the database is back."""

import logging
import socket

import pytest
from django.db import connection

from feedback import tasks
from feedback.models import RawReport
from tests.feedback.factories import RawReportFactory

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
