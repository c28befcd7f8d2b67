"""Issue 38: a run page keeps the label of every field the importer and the demo's
environment file give (before, the notes read "5; 4 tables…" without "seconds per point",
and the tool's interval lines were not shown at all)."""

from datetime import date

import pytest
from pytest_django.asserts import assertContains

from benchmarks import demo
from benchmarks.models import Run
from benchmarks.services import importing
from tests.benchmarks.factories import SuiteFactory
from tests.benchmarks.helpers import OLTP_RW, OLTP_RW_PROVENANCE

pytestmark = pytest.mark.django_db


def test_the_demo_notes_keep_their_labels():
    assert demo._environment()["notes"] == (
        "seconds per point: 5; 4 tables x 20000 rows; innodb_buffer_pool_size=512M"
    )


def test_the_run_page_shows_every_detail_the_tool_reported_with_its_label(client):
    suite = SuiteFactory(slug="labels")
    run = importing.import_run(
        suite=suite,
        label="oltp",
        raw=OLTP_RW.read_bytes(),
        file_name="oltp.txt",
        importer="sysbench",
        **{**OLTP_RW_PROVENANCE, "run_date": date(2026, 11, 23)},
    )
    Run.objects.filter(pk=run.pk).update(status=Run.Status.PUBLISHED)
    response = client.get(run.get_absolute_url())
    for label, text in [
        ("tool", "sysbench 1.0.20"),
        ("options", "Number of threads: 4"),
    ]:
        assertContains(response, f"<dt>{label}</dt><dd>{text}</dd>", html=True)
    # the report's interval lines, each with its own labels, under their name
    assertContains(response, "<dt>intervals</dt>", html=True)
    assertContains(response, "[ 1s ] thds: 4 tps: 97.85 qps: 2018.81")
