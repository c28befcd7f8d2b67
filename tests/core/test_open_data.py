"""Open data as a notebook reads it: every CSV linked from /feedback/, /funding/,
/benchmarks/ and the snapshots index loads with pandas into numbers and dates with no
cleaning, and every Data Package descriptor passes the maintained ``frictionless``
validator against the files the site serves (on the demo content)."""

import io
import json
import re
from datetime import date
from urllib.parse import urlsplit

import frictionless
import pandas as pd
import pytest
from django.test import Client

from feedback.trends.rollups import update_rollups
from tests.feedback.factories import ReportFactory
from tests.feedback.trends.test_truthful import TODAY, at

pytestmark = pytest.mark.django_db

DESCRIPTORS = [
    "/api/feedback/datapackage.json",
    "/funding/datapackage.json",
    "/api/benchmarks/datapackage.json",
]
NUMERIC = ("integer", "number")
DATES = ("date", "datetime", "yearmonth")


@pytest.fixture(scope="class")
def demo(demo_database):
    with demo_database.in_use():
        yield


def local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def csv_links(client, page: str) -> set[str]:
    html = client.get(page).content.decode()
    return {link.replace("&amp;", "&") for link in re.findall(r'href="([^"]*\.csv[^"]*)"', html)}


def schemas(client) -> dict[str, dict]:
    """Every CSV address the descriptors list -> its Table Schema."""
    found = {}
    for address in DESCRIPTORS + snapshot_descriptors(client):
        descriptor = client.get(address).json()
        for resource in descriptor["resources"]:
            found[local(resource["path"]) if "//" in resource["path"] else resource["path"]] = (
                resource["schema"]
            )
    return found


def snapshot_descriptors(client) -> list[str]:
    index = client.get("/api/feedback/snapshots/").json()
    return [local(s["files"]["datapackage"]["url"]) for s in index["snapshots"]]


def read(client, address: str, schema: dict) -> pd.DataFrame:
    """pandas.read_csv as a notebook calls it: the dates named, nothing else."""
    response = client.get(address)
    assert response.status_code == 200, address
    dates = [f["name"] for f in schema["fields"] if f["type"] in DATES]
    return pd.read_csv(io.StringIO(response.content.decode()), parse_dates=dates)


class TestOnTheDemo:
    def test_every_linked_csv_loads_typed_with_pandas(self, client, demo):
        snapshot_index = client.get("/api/feedback/snapshots/").json()
        suites = re.findall(
            r'href="(/benchmarks/[a-z0-9-]+/)"', client.get("/benchmarks/").content.decode()
        )
        links = csv_links(client, "/feedback/") | csv_links(client, "/funding/")
        for suite in set(suites):
            links |= csv_links(client, suite)
        links |= {local(s["files"]["csv"]["url"]) for s in snapshot_index["snapshots"]}
        assert any("/api/feedback/charts/" in link for link in links)
        assert any(link.startswith("/funding") for link in links)
        assert any(link.startswith("/api/benchmarks/") for link in links)
        assert any("/snapshots/" in link for link in links)
        described = schemas(client)
        with_rows = 0
        for link in sorted(links):
            path = link.split("?")[0]
            schema = described.get(link) or next(
                (s for address, s in described.items() if address.split("?")[0] == path), None
            )
            assert schema is not None, f"{link} is in no Data Package"
            frame = read(client, link, schema)
            assert list(frame.columns) == [f["name"] for f in schema["fields"]], link
            if frame.empty:
                continue
            with_rows += 1
            for field in schema["fields"]:
                column = frame[field["name"]]
                if field["type"] in NUMERIC:
                    assert pd.api.types.is_numeric_dtype(column), (link, field["name"], column)
                elif field["type"] in DATES and column.notna().any():
                    assert pd.api.types.is_datetime64_any_dtype(column), (link, field["name"])
                elif field["type"] == "boolean":
                    assert pd.api.types.is_bool_dtype(column), (link, field["name"])
        assert with_rows >= 20

    def test_every_descriptor_passes_frictionless_against_the_served_files(
        self, client, demo, tmp_path
    ):
        """Each descriptor as served, its files as served (saved beside it, the paths
        pointed at the saved copies); a snapshot's keeps its relative path and SHA-256."""
        for number, address in enumerate(DESCRIPTORS + snapshot_descriptors(client)):
            response = client.get(address)
            assert response.status_code == 200 and response["Content-Type"].startswith(
                "application/json"
            )
            descriptor = response.json()
            folder = tmp_path / str(number)
            folder.mkdir()
            for index, resource in enumerate(descriptor["resources"]):
                path = resource["path"]
                url = local(path) if "//" in path else address.rsplit("/", 1)[0] + "/" + path
                name = path if "//" not in path else f"r{index}.csv"
                (folder / name).write_bytes(client.get(url).content)
                resource["path"] = name
            (folder / "datapackage.json").write_text(json.dumps(descriptor))
            report = frictionless.validate(str(folder / "datapackage.json"))
            assert report.valid, (address, report.flatten(["title", "message"])[:5])
            assert descriptor["licenses"], address  # and the withholding rule stated
            if "benchmarks" not in address:  # (no benchmark figure is withheld)
                assert "withheld" in json.dumps(descriptor).lower(), address

    def test_a_changed_file_fails_its_snapshot_descriptor(self, client, demo, tmp_path):
        """The validation is real: a byte changed in a snapshot's CSV breaks its SHA-256."""
        [address, *_] = snapshot_descriptors(client)
        descriptor = client.get(address).json()
        [resource] = descriptor["resources"]
        text = client.get(address.replace(".datapackage.json", ".csv")).content
        changed = text.replace(b",100.0\n", b",99.0\n", 1)  # same size, another SHA-256
        assert changed != text
        (tmp_path / resource["path"]).write_bytes(changed)
        (tmp_path / "datapackage.json").write_text(json.dumps(descriptor))
        assert not frictionless.validate(str(tmp_path / "datapackage.json")).valid


def test_a_notebook_needs_no_cleaning_on_a_withheld_month(client, settings):
    """The issue's case: withheld rows load as empty numbers with a withheld flag."""
    settings.FEEDBACK_MIN_BUCKET_SERVERS = 3
    for _ in range(3):
        ReportFactory(received_at=at(date(2026, 9, 3)))
    # October: one server on 10.6 (too few: withheld) beside three on the default series,
    # whose count the month's total would give it away with (so withheld with it)
    ReportFactory(received_at=at(date(2026, 10, 3)), version_minor=6)
    for _ in range(3):
        ReportFactory(received_at=at(date(2026, 10, 4)))
    update_rollups(today=TODAY)
    for address in ("/api/feedback/charts/series.csv", "/api/feedback/trends/series.csv"):
        frame = pd.read_csv(io.StringIO(Client().get(address).content.decode()))
        assert pd.api.types.is_numeric_dtype(frame["servers"])
        assert frame["servers_withheld"].dtype == bool and frame["servers_withheld"].any()
        assert frame.loc[frame["servers_withheld"], "servers"].isna().all()
        periods = pd.to_datetime(frame["period_start"], format="ISO8601")
        assert periods.min() == pd.Timestamp("2026-09-01")
