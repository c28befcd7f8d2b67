"""Logs that help at 3 a.m., read as production writes them (JSON lines on stdout): an
outage is one line when it starts and one when it ends, not one per request; a stranger's
malformed request is a WARNING without a traceback; Celery logs JSON like the web."""

import io
import json
import logging

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import OperationalError
from django.test import Client

from core.outage import DATABASE_OUTAGE
from tests.core.test_settings import PRODUCTION_ENV, ROOT, SETUP, run_python

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
    # The refusal is counted with the other answers refused (the 400 of the same request),
    # written when the process ends: one line, no traceback.
    [summary] = [r for r in records if r["logger"] == "core.requests"]
    counted = {(c["kind"], c["route"]): c["count"] for c in summary["counts"]}
    assert counted == {("django.security.TooManyFieldsSent", "contact/"): 1}
    assert summary["level"] == "WARNING" and "Traceback" not in result.stdout


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


# Issue 58, item 5: a donor's manage token in the `request` extra of the JSON log.
TOKEN = "eyJyZWYiOiJnaWZ0In0:1vQx7Z:Zq8TokenOfTheDonorNeverLogged"


def test_no_url_secret_reaches_the_json_log_whatever_field_carries_it():
    """The production JSON format: the secret of every registered prefix and parameter, in
    a path asked for (4xx, counted), in a line with Django's request object as an extra,
    in an exception's text and in a plain message."""
    paths = [
        f"/donate/manage/{TOKEN}/receipt/10/",
        f"/documents/{TOKEN}/",
        f"/documents/{TOKEN}/pdf/",
        f"/sponsors/invitations/{TOKEN}/",
        f"/accounts/password/reset/key/1-{TOKEN}/",
        f"/donate/thanks/?gift={TOKEN}",
        f"/accounts/login/?next=%2Fdocuments%2F{TOKEN}%2F",
    ]
    code = (
        SETUP
        + f"""
import logging
from django.test import Client
client = Client(raise_request_exception=False)
for path in {paths!r}:
    response = client.get(path)
    logging.getLogger("django.request").error(
        "Internal Server Error: %s", path,
        extra={{"status_code": 500, "request": response.wsgi_request}},
    )
try:
    raise ValueError("no document at " + {paths[1]!r})
except ValueError:
    logging.getLogger("portal.test").exception("failed")
logging.getLogger("portal.test").warning("asked for %s", {paths[0]!r})
"""
    )
    # No database (nothing listens on port 9: the pages answer 503, which is counted, not
    # written): a process that connected to the worker's test database would still be
    # leaving it when the next test copies that database.
    result = run_python(
        code,
        {**PRODUCTION_ENV, "LOG_FORMAT": "json", "REDIS_URL": "",
         "DATABASE_URL": "postgres://portal@127.0.0.1:9/portal"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    records = json_lines(result.stdout)
    assert len([r for r in records if r["logger"] == "django.request"]) == len(paths)
    assert any("exc_info" in r for r in records)
    assert "[redacted]" in result.stdout
    assert TOKEN not in result.stdout + result.stderr
    assert TOKEN.split(":")[-1] not in result.stdout + result.stderr


def test_a_flood_of_refused_answers_is_a_line_per_interval_with_counts_per_route(
    monkeypatch, outage_state
):
    """Issue 58, item 11: a 20 s PostgreSQL outage wrote 1,934 lines. Now 4xx and 503
    answers are counted per status and route and written once per interval."""
    from core.logfilters import ClientErrorCounts

    # Flushed by hand below, to a logger of its own (the site's handler counts the same
    # records, and its timer may write a line of its own meanwhile).
    counts = ClientErrorCounts(interval_seconds=3600, logger="tests.requests")
    written: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            written.append(record)

    keep = Keep()
    keep.addFilter(counts)
    for name in ("django.request", "django.security", "tests.requests"):
        logging.getLogger(name).addHandler(keep)
    try:
        client = Client(raise_request_exception=False)
        for n in range(150):
            client.get(f"/no-such-page-{n}/")
        client.get(f"/donate/manage/{TOKEN}/")
        fields = "&".join(f"field{n}=x" for n in range(1500))
        client.post("/contact/", fields, content_type="application/x-www-form-urlencoded")

        def refuse(self, *args, **kwargs):
            raise OperationalError("the database went away")

        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
        for _ in range(40):
            client.get("/healthz")
        monkeypatch.undo()
        assert [r for r in written if r.name.startswith(("django.", "tests."))] == []  # nothing yet
        counts.flush()
        counts.flush()  # nothing more to say
    finally:
        for name in ("django.request", "django.security", "tests.requests"):
            logging.getLogger(name).removeHandler(keep)
    [summary] = [r for r in written if r.name == "tests.requests"]
    counted = {(c["kind"], c["route"]): c["count"] for c in summary.counts}
    assert counted[("404", "(no route)")] == 150
    assert counted[("404", "donate/manage/<str:token>/")] == 1
    assert counted[("503", "healthz")] == 40
    assert counted[("django.security.TooManyFieldsSent", "contact/")] == 1
    assert summary.getMessage().startswith("192 answers")  # 150 + 1 + 1 + 40
    assert TOKEN not in summary.getMessage()


def test_nginx_reads_the_same_list_of_secret_paths_as_the_site():
    """deploy/nginx/portal-redact.conf is written from core.logredact's registry
    (`manage.py write_nginx_redaction`), and the shipped nginx config includes it."""
    from core import logredact

    shipped = ROOT / "deploy" / "nginx" / "portal-redact.conf"
    assert shipped.read_text() == logredact.nginx_map(), (
        "run `manage.py write_nginx_redaction` and commit deploy/nginx/portal-redact.conf"
    )
    assert (
        "include /srv/portal/deploy/nginx/portal-redact.conf;"
        in (ROOT / "deploy" / "nginx" / "portal.conf").read_text()
    )
    for prefix in ("documents", "donate(?:/|%2F)manage", "sponsors(?:/|%2F)invitations"):
        assert prefix in shipped.read_text()


def test_the_command_writes_nginx_map_from_the_registry(tmp_path, monkeypatch):
    from django.core.management import call_command

    from core import logredact
    from core.management.commands import write_nginx_redaction

    target = tmp_path / "portal-redact.conf"
    monkeypatch.setattr(write_nginx_redaction, "NGINX_REDACTION_MAP", target)
    logredact.redact_after("/an-apps-new-secret-link/")
    try:
        call_command("write_nginx_redaction", stdout=io.StringIO())
        written = target.read_text()
    finally:
        logredact._secret_prefixes.remove("/an-apps-new-secret-link/")
        logredact.SECRET_PATH = logredact._secret_path(logredact._secret_prefixes)
    assert "an-apps-new-secret-link" in written
    assert written.startswith("# Written by `manage.py write_nginx_redaction`")
