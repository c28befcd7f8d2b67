"""Issue 34: one hyperfine file of 40,000 commands held a worker and the suite's search row
for minutes (a Run saved, and the suite re-indexed, per command). An upload now makes at
most BENCHMARK_MAX_RUNS_PER_UPLOAD runs (a larger file is refused with 400 naming the
limit, storing nothing), writes its rows in bulk and brings the search entry up to date
once."""

import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token

from benchmarks.importers import ImportFailed
from benchmarks.models import Attachment, Measurement, Run, Suite
from benchmarks.services import importing
from search.models import SearchDocument
from search.sources import object_key
from tests.benchmarks.helpers import OLTP_RW_PROVENANCE

pytestmark = pytest.mark.django_db


def hyperfine(commands: int) -> bytes:
    results = [
        {
            "command": f"sleep 0.{index}",
            "mean": 0.1 + index / 1000,
            "stddev": 0.001,
            "median": 0.1 + index / 1000,
            "min": 0.09,
            "max": 0.2,
            "times": [0.1 + index / 1000, 0.1 + index / 1000],
            "exit_codes": [0, 0],
        }
        for index in range(commands)
    ]
    return json.dumps({"results": results}).encode()


@pytest.fixture
def suite():
    return Suite.objects.create(slug="limits", title="Limits", is_published=True)


def stored():
    return Run.objects.count(), Measurement.objects.count(), Attachment.objects.count()


def test_a_file_with_more_series_than_an_upload_may_make_is_refused_naming_the_limit(
    client, django_user_model, suite, settings
):
    settings.BENCHMARK_MAX_RUNS_PER_UPLOAD = 50
    user = django_user_model.objects.create_user("bot", "bot@example.org", "x", is_staff=True)
    token = Token.objects.create(user=user).key
    response = client.post(
        f"/api/benchmarks/{suite.slug}/runs/",
        {
            "label": "many",
            "importer": "hyperfine",
            "file": SimpleUploadedFile("many.json", hyperfine(51)),
        },
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"] == (
        "the file holds 51 series (commands, benchmarks or columns), each a run; "
        "an upload may make at most 50 runs"
    )
    assert stored() == (0, 0, 0)


def test_a_file_with_more_measurements_than_allowed_is_refused(suite, settings):
    settings.BENCHMARK_MAX_MEASUREMENTS_PER_UPLOAD = 10
    with pytest.raises(ImportFailed, match=r"holds 11 measurements; .* at most 10"):
        importing.import_run(
            suite=suite, label="r", raw=hyperfine(11), file_name="h.json", importer="hyperfine"
        )
    assert stored() == (0, 0, 0)


def test_many_commands_are_stored_in_bulk_and_the_suite_indexed_once(
    suite, django_user_model, django_assert_max_num_queries
):
    publisher = django_user_model.objects.create_superuser("machine", "m@example.org", "x")
    SearchDocument.objects.filter(key=object_key(Suite, suite.pk)).delete()
    # The default limit is 200; a save per run took 6 queries or more, 1,200 for this file.
    with django_assert_max_num_queries(60):
        run = importing.import_run(
            suite=suite,
            label="gzip",
            raw=hyperfine(200),
            file_name="h.json",
            importer="hyperfine",
            user=publisher,
            **{**OLTP_RW_PROVENANCE, "run_date": datetime.date(2026, 11, 23)},
        )
    assert stored() == (200, 200, 1)
    assert run.status == Run.Status.PUBLISHED
    assert sorted(Run.objects.values_list("order", flat=True)) == list(range(200))
    entry = SearchDocument.objects.get(key=object_key(Suite, suite.pk))
    assert entry.date == datetime.date(2026, 11, 23)  # the runs' date dates the suite
