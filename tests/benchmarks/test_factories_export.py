"""The exports from a suite made with factories: what a published suite shows, an
unpublished one hides."""

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
