"""Issue 38: each suite's headline metrics across server versions (ordered as versions, not
as uploaded), a change between two versions judged by the compare page's rule and listed
in the Atom feed; runs off the suite's reference hardware marked and plotted apart."""

import re
from datetime import date

import pytest
from pytest_django.asserts import assertContains

from benchmarks import compare
from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory
from tests.foundation.factories import NewsPostFactory

pytestmark = pytest.mark.django_db
EPYC = "AMD EPYC, 2 cores, 23 GiB RAM"  # this project's machine (RunFactory's hardware)


def _run(suite, version, samples, commit="", hardware=EPYC, label=None):
    run = RunFactory(
        suite=suite,
        label=label or f"nightly {version}",
        server_version=version,
        server_commit=commit,
        hardware=hardware,
        run_date=date(2026, 11, 20),
    )
    MeasurementFactory(
        run=run,
        value=sum(samples) / len(samples),
        samples=samples,
        minimum=min(samples),
        maximum=max(samples),
        parameters={"threads": 8},
    )
    return run


@pytest.fixture
def suite():
    return SuiteFactory(slug="nightly", title="Nightly OLTP")


def test_the_versions_are_plotted_in_version_order_not_upload_order(client, suite):
    for version in ["11.4.4", "10.6.20", "10.11.19"]:  # uploaded in this order
        _run(suite, version, [100.0, 101.0, 99.0])
    response = client.get("/benchmarks/nightly/")
    (chart,) = response.context["version_charts"]
    assert chart["labels"] == ["10.6.20", "10.11.19", "11.4.4"]
    assert chart["x_title"] == "server version"
    assertContains(response, '<h2 id="versions">Across server versions</h2>', html=True)
    # the data table beside the chart, its rows in the same order
    assert [row[0] for row in chart["table"]["rows"]] == ["10.6.20", "10.11.19", "11.4.4"]
    assertContains(response, "<th scope='row'>10.6.20</th>", count=1, html=True)


def test_a_commit_given_is_a_point_of_its_own(client, suite):
    _run(suite, "11.4.4", [100.0, 101.0, 99.0], commit="0a1b2c3d4e5f")
    _run(suite, "11.4.4", [100.0, 101.0, 99.0], commit="9f8e7d6c5b4a")
    chart = client.get("/benchmarks/nightly/").context["version_charts"][0]
    assert chart["labels"] == ["11.4.4 @ 0a1b2c3d4e", "11.4.4 @ 9f8e7d6c5b"]


def test_a_regression_between_two_versions_is_flagged_as_the_compare_page_would(client, suite):
    older = _run(suite, "10.11.18", [1000.0, 1010.0, 990.0, 1005.0, 995.0])
    newer = _run(suite, "10.11.19", [800.0, 790.0, 810.0, 805.0, 795.0])
    _run(suite, "10.11.20", [802.0, 793.0, 808.0, 801.0, 799.0])  # within the noise
    # the same rule as the compare page for these two runs
    (section,) = compare.compare_runs(older, newer)["sections"]
    assert section["rows"][0]["css"] == "worse"
    response = client.get("/benchmarks/nightly/")
    chart = response.context["version_charts"][0]
    assert chart["marks"] == [1]
    rows = chart["table"]["rows"]
    assert rows[1][3].startswith("regression: 1.25× slower (−20.0%), p = 0.0")
    assert rows[2][3].startswith("within noise")
    (change,) = response.context["version_changes"]
    assert change["run"] == newer and change["kind"] == "regression"
    assertContains(response, "between releases 10.11.18 and 10.11.19")
    feed = client.get("/benchmarks/nightly/regressions.atom")
    assertContains(feed, "Regression: transactions per second 1.25× slower (−20.0%)")
    assertContains(feed, "It appeared between releases 10.11.18 and 10.11.19.")
    assertContains(
        feed, f"/benchmarks/nightly/runs/{newer.pk}/#transactions-per-second-threads-8-versions"
    )


def test_runs_without_repetitions_are_not_judged(client, suite):
    _run(suite, "10.11.18", [1000.0])
    _run(suite, "10.11.19", [500.0])
    response = client.get("/benchmarks/nightly/")
    chart = response.context["version_charts"][0]
    assert chart["marks"] == [] and chart["table"]["rows"][1][3].startswith("no repetitions")
    assert response.context["version_changes"] == []


def test_runs_on_another_machine_are_marked_and_plotted_apart(client, suite):
    for version in ["10.11.18", "10.11.19", "11.4.4"]:
        _run(suite, version, [100.0, 101.0, 99.0])
    cloud = "2 vCPU / 8 GiB"
    for version in ["10.11.19", "11.4.4"]:
        _run(suite, version, [60.0, 61.0, 59.0], hardware=cloud, label=f"cloud {version}")
    response = client.get("/benchmarks/nightly/")
    reference, elsewhere = response.context["version_charts"]
    assert reference["labels"] == ["10.11.18", "10.11.19", "11.4.4"]
    assert elsewhere["labels"] == ["10.11.19", "11.4.4"]
    assert elsewhere["title"].endswith("· on 2 vCPU / 8 GiB")
    assertContains(response, "This suite's reference hardware is AMD EPYC, 2 cores, 23 GiB RAM")
    assertContains(
        response, '<span class="badge badge-rc">other machine</span>', count=2, html=True
    )


def test_staff_name_the_reference_hardware(client, suite):
    _run(suite, "10.11.19", [100.0, 101.0, 99.0])
    _run(suite, "11.4.4", [60.0, 61.0, 59.0], hardware="2 vCPU / 8 GiB")
    _run(suite, "11.4.5", [60.0, 61.0, 59.0], hardware="2 vCPU / 8 GiB")
    response = client.get("/benchmarks/nightly/")
    assert response.context["reference_hardware"] == "2 vCPU / 8 GiB"
    suite.reference_hardware = EPYC
    suite.save()
    response = client.get("/benchmarks/nightly/")
    assertContains(response, f"reference hardware is {EPYC}")
    assertContains(
        response, '<span class="badge badge-rc">other machine</span>', count=2, html=True
    )


def test_a_suite_of_one_version_says_why_it_has_no_version_chart(client, suite):
    """Issue 49: a suite whose runs do not span versions showed nothing, silently; the
    demo's real figures span none, so its pages say so (no figure is made up)."""
    _run(suite, "10.11.19", [100.0, 101.0, 99.0])
    _run(suite, "10.11.19", [100.0, 102.0, 99.0])
    response = client.get("/benchmarks/nightly/")
    assert response.context["version_charts"] == []
    assertContains(
        response,
        '<h2 id="versions">Across server versions</h2><p class="empty-state">Every run of this '
        "suite measured 10.11.19, so there is no history across server versions: it appears "
        "here once runs of the suite measure two versions or more.</p>",
        html=True,
    )
    RunFactory(suite=suite, label="from an article", server_version="")
    response = client.get("/benchmarks/nightly/")
    assertContains(response, "all measured 10.11.19 (1 does not say)")


def test_runs_that_state_no_version_or_span_versions_apart_say_so(client, suite):
    RunFactory(suite=suite, label="an article", server_version="")
    response = client.get("/benchmarks/nightly/")
    assertContains(response, "runs states the server version it measured (the sources do not")
    _run(suite, "10.6.20", [100.0, 101.0, 99.0])
    _run(suite, "11.4.4", [100.0, 101.0, 99.0], hardware="2 vCPU / 8 GiB")
    response = client.get("/benchmarks/nightly/")
    assert response.context["version_charts"] == []
    assertContains(response, "runs measured 10.6.20 and 11.4.4, but no headline figure was")


def test_runs_on_other_machines_have_their_own_charts_and_a_plain_note(client, suite):
    """Issue 49: runs marked "other machine" were drawn on the main charts with the
    reference runs, under a broken note ("…; bars-t4 (2 vCPU, 8 GiB); …; were measured
    elsewhere"). The main charts hold the reference runs; each other machine has charts of
    its own; the note is a sentence."""
    cloud = "2 vCPU, 8 GiB"
    _run(suite, "10.11.19", [100.0, 101.0, 99.0], label="epyc 10.11")
    _run(suite, "11.4.4", [60.0, 61.0, 59.0], hardware=cloud, label="bars-t4")
    _run(suite, "11.4.4", [62.0, 61.0, 63.0], hardware=cloud, label="bars-t8")
    _run(suite, "11.4.4", [100.0, 102.0, 98.0], label="epyc 11.4")  # listed after them
    response = client.get("/benchmarks/nightly/")
    series = [d["label"] for chart in response.context["charts"] for d in chart["datasets"]]
    labels = [label for chart in response.context["charts"] for label in chart["labels"]]
    assert "bars-t4" not in str(series + labels) and "epyc 11.4" in str(series + labels)
    (machine,) = response.context["machine_charts"]
    assert machine["hardware"] == cloud
    (chart,) = machine["charts"]
    assert "epyc" not in str(chart["labels"] + [d["label"] for d in chart["datasets"]])
    assert {"bars-t4", "bars-t8"} <= set(chart["labels"] + [d["label"] for d in chart["datasets"]])
    assertContains(response, '<h2 id="machines-title">Runs on other machines</h2>', html=True)
    text = " ".join(response.content.decode().split())
    note = text[text.index("Not all on one machine.") :]
    note = note[: note.index("</p>")]
    for tag in ("<strong>", "</strong>"):
        note = note.replace(tag, "")
    note = re.sub(r"<[^>]+>", "", note)
    assert note == (
        "Not all on one machine. This suite's reference hardware is AMD EPYC, 2 cores, 23 GiB "
        "RAM. bars-t4 (2 vCPU, 8 GiB) and bars-t8 (2 vCPU, 8 GiB) were measured on another "
        "machine, so their figures are not like for like with the others: the main charts "
        "leave them out, and that machine has charts of its own."
    )
    # the chart page, its image and its embed in a post draw what the main chart draws
    page = client.get(f"/benchmarks/nightly/charts/{chart['slug']}/")
    assert page.context["chart"]["labels"] == ["epyc 10.11", "epyc 11.4"]
    svg = client.get(f"/benchmarks/nightly/charts/{chart['slug']}.svg").content.decode()
    assert "epyc 11.4" in svg and "bars-t4" not in svg
    suite.is_published = True
    suite.save()
    NewsPostFactory(slug="nightly", body=f"[[benchmark-chart nightly {chart['slug']}]]")
    post = client.get("/news/nightly/").content.decode()
    assert "epyc 11.4" in post and "bars-t4" not in post


def test_a_history_holds_the_reference_machines_runs_only(client, suite):
    """Issue 49: a run on another machine was drawn in the run-after-run history and,
    slower hardware, flagged as a regression of the software."""
    for value in (100.0, 101.0, 99.0, 100.0):
        _run(suite, "11.4.4", [value, value + 1, value - 1], label=f"epyc {value}")
    _run(suite, "11.4.4", [40.0, 41.0, 39.0], hardware="2 vCPU, 8 GiB", label="bars-t4")
    response = client.get("/benchmarks/nightly/")
    (chart,) = response.context["history_charts"]
    assert "bars-t4" not in str(chart) and "epyc 99.0" in str(chart)
    assert response.context["changes"] == []
    svg = client.get("/benchmarks/nightly/history/0.svg").content.decode()
    assert "epyc 99.0" in svg and "bars-t4" not in svg
