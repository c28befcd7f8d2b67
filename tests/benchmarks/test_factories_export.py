"""The exports from a suite made with factories: what a published suite shows, an
unpublished one hides."""

import csv
import io
import json
from datetime import UTC, date, datetime

import pytest

from tests.benchmarks.factories import MeasurementFactory, SuiteFactory

pytestmark = pytest.mark.django_db


def test_the_json_export_lists_each_run_with_its_measurements(client):
    measurement = MeasurementFactory(
        run__suite__slug="pool-of-threads", run__label="pool-of-threads", value=4321.5
    )
    data = client.get("/api/benchmarks/pool-of-threads.json").json()
    [run] = data["runs"]
    assert run["label"] == "pool-of-threads"
    assert run["environment"]["server_version"] == measurement.run.server_version
    assert [(m["metric"], m["value"]) for m in run["measurements"]] == [
        ("transactions per second", 4321.5)
    ]


def test_an_unpublished_suite_is_not_exported(client):
    MeasurementFactory(run__suite=SuiteFactory(slug="draft-suite", is_published=False))
    assert client.get("/api/benchmarks/draft-suite.json").status_code == 404
    assert client.get("/api/benchmarks/draft-suite.csv").status_code == 404


OLD_COLUMNS = ["run", "label", "metric", "unit", "higher_is_better", "parameters", "value",
               "min", "median", "max", "stddev", "samples"]  # fmt: skip
ARTICLE = "https://mariadb.org/on-performance-of-jdbc-drivers/"


def _measured_and_cited_runs():
    """A run of this project's machine with its whole provenance, and figures from the JDBC
    article (benchmarks/demo.py), which states neither the date nor the server version."""
    suite = SuiteFactory(slug="provenance")
    measured = MeasurementFactory(
        run__suite=suite,
        run__label="measured",
        run__run_date=date(2026, 11, 23),
        run__measured_at=datetime(2026, 11, 23, 8, 35, 15, tzinfo=UTC),
        run__server_version="10.11.19-MariaDB-0+deb12u1",
        run__server_commit="0a1b2c3",
        run__source_url="https://ci.example.org/1234",
    ).run
    cited = MeasurementFactory(
        run__suite=suite,
        run__label="ConnectorJ-5.1.24",
        run__server_version="",
        run__hardware="the author's own workstation",
        run__os="Windows Server 2008 R2",
        run__client="single-threaded Java test program; ConnectorJ 5.1.24",
        run__source="“On performance of JDBC drivers”, mariadb.org",
        run__source_url=ARTICLE,
        run__unstated=["run_date", "server_version"],
        metric="DO 1, unprepared, TCP",
        unit="queries/s",
        value=19543,
    ).run
    return measured, cited


def test_the_csv_download_carries_each_runs_provenance(client):
    measured, cited = _measured_and_cited_runs()
    text = client.get("/api/benchmarks/provenance.csv").content.decode()
    header = next(csv.reader(io.StringIO(text)))
    assert header[: len(OLD_COLUMNS)] == OLD_COLUMNS  # added, never renamed or moved
    rows = {row["label"]: row for row in csv.DictReader(io.StringIO(text))}
    assert {k: rows["measured"][k] for k in header[len(OLD_COLUMNS) :]} == {
        "run_date": "2026-11-23",
        "measured_at": "2026-11-23T08:35:15+00:00",
        "server_version": "10.11.19-MariaDB-0+deb12u1",
        "server_commit": "0a1b2c3",
        "server_config": "",  # not recorded: an empty cell, never prose
        "hardware": measured.hardware,
        "os": measured.os,
        "client": measured.client,
        "source": measured.source,
        "source_url": "https://ci.example.org/1234",
        "unstated": "[]",
    }
    article = rows["ConnectorJ-5.1.24"]
    # not stated by the cited source: empty cells, and the unstated column names them
    assert article["run_date"] == article["server_version"] == ""
    assert json.loads(article["unstated"]) == ["run_date", "server_version"]
    assert article["hardware"] == "the author's own workstation"
    assert article["client"] == cited.client
    assert (article["source"], article["source_url"]) == (cited.source, ARTICLE)


def test_the_json_download_says_where_the_source_states_nothing(client):
    _, cited = _measured_and_cited_runs()
    runs = {r["label"]: r for r in client.get("/api/benchmarks/provenance.json").json()["runs"]}
    article = runs["ConnectorJ-5.1.24"]
    # What was there before keeps its meaning; what is added says why a value is absent.
    assert article["environment"]["date"] is None
    assert article["environment"]["server_version"] == ""
    assert article["environment"]["unstated"] == ["run_date", "server_version"]
    assert article["environment"]["source"] == cited.source
    assert article["environment"]["source_url"] == ARTICLE
    assert article["provenance"]["run_date"] == "not stated by the source"
    assert article["provenance"]["server_version"] == "not stated by the source"
    assert article["provenance"]["os"] == "Windows Server 2008 R2"
    assert runs["measured"]["environment"]["measured_at"] == "2026-11-23T08:35:15+00:00"
    assert runs["measured"]["environment"]["server_commit"] == "0a1b2c3"
    assert runs["measured"]["provenance"]["run_date"] == "2026-11-23"
    assert runs["measured"]["provenance"]["source_url"] == "https://ci.example.org/1234"
