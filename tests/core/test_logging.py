"""Logs that help at 3 a.m., read as production writes them (JSON lines on stdout): an
outage is one line when it starts and one when it ends, not one per request; a stranger's
malformed request is a WARNING without a traceback; Celery logs JSON like the web."""

import json
import logging

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import OperationalError
from django.test import Client

from core.outage import DATABASE_OUTAGE
from tests.core.test_settings import PRODUCTION_ENV, SETUP, run_python

pytestmark = pytest.mark.django_db

PAGES = ["/", "/news/", "/supporters/", "/download/", "/feedback/", "/about/board/"]


def json_lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


@pytest.fixture
def outage_state():
    DATABASE_OUTAGE.down_since = None
    yield DATABASE_OUTAGE
    DATABASE_OUTAGE.down_since = None


def test_a_database_outage_is_two_lines_not_one_per_request(monkeypatch, caplog, outage_state):
    def refuse(self, *args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO):
        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
        statuses = [client.get(path).status_code for path in PAGES * 5]
        assert client.get("/robots.txt").status_code == 200  # needs no query: says nothing
        monkeypatch.undo()
        assert client.get("/news/").status_code == 200
        assert client.get("/about/board/").status_code == 200
    assert statuses == [503] * len(PAGES) * 5
    lines = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    outage = [line for line in lines if line[0] == "core.outage"]
    assert outage[0] == ("core.outage", "WARNING",
                         "database unavailable (OperationalError): answering 503 with Retry-After")  # fmt: skip
    assert outage[1][2].startswith("database available again after ")
    assert len(outage) == 2
    assert not [line for line in lines if line[0] == "django.request"]


def test_client_mistakes_and_503s_are_logged_as_warnings_without_tracebacks():
    """The web process as configured (JSON lines on stdout, as in production), with its
    database unreachable, then a stranger posting 1,500 form fields."""
    code = (
        SETUP
        + """
from django.test import Client
client = Client(raise_request_exception=False)
for path in ["/", "/news/", "/about/board/"]:
    print("STATUS", client.get(path).status_code)
body = "&".join(f"field{n}=x" for n in range(1500))
print("STATUS", client.post("/contact/", body,
                            content_type="application/x-www-form-urlencoded").status_code)
"""
    )
    # Nothing listens on port 9: the database is unreachable.
    env = {"LOG_FORMAT": "json", "DATABASE_URL": "postgres://portal@127.0.0.1:9/portal",
           "REDIS_URL": ""}  # fmt: skip
    result = run_python(code, env)
    statuses = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("STATUS")]
    assert statuses == ["503", "503", "503", "400"], result.stdout + result.stderr
    records = json_lines(result.stdout)
    assert [r for r in records if r["level"] in ("ERROR", "CRITICAL")] == []
    [outage] = [r for r in records if r["logger"] == "core.outage"]
    assert outage["level"] == "WARNING" and "exc_info" not in outage
    [too_many] = [r for r in records if r["logger"] == "django.security.TooManyFieldsSent"]
    assert too_many["level"] == "WARNING"
    assert "exc_info" not in too_many and "Traceback" not in result.stdout


def test_other_503s_are_warnings_without_a_traceback():
    from core.logfilters import ExpectedClientErrorsFilter

    try:
        raise TimeoutError("commit took too long")
    except TimeoutError as error:
        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "Service Unavailable: %s",
            ("/rest/v1/post",), (type(error), error, error.__traceback__),
        )  # fmt: skip
    record.status_code = 503
    assert ExpectedClientErrorsFilter().filter(record)
    assert (record.levelname, record.exc_info) == ("WARNING", None)

    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom", (), None)
    record.status_code = 500
    ExpectedClientErrorsFilter().filter(record)
    assert record.levelname == "ERROR"  # the site's own faults stay errors


@pytest.mark.parametrize("program", ["worker", "beat"])
def test_celery_worker_and_beat_log_json_in_production(program):
    # What `celery worker` and `celery beat` do at start: app.log.setup().
    code = (
        SETUP
        + f"""
import logging
from config.celery import app
app.log.setup(loglevel="INFO", redirect_stdouts=False)
logging.getLogger("celery.{program}").info("{program} started")
"""
    )
    result = run_python(code, PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    [record] = [r for r in json_lines(result.stdout) if r["logger"] == f"celery.{program}"]
    assert (record["message"], record["level"]) == (f"{program} started", "INFO")
    assert result.stderr == ""
