"""Issue 57, "Green on any day": benchmark history forms over time. A version string as
servers print it is the release it names (history, compare, filters); a machine is the same
machine when its CPU model, cores and memory match, the memory to the GiB a tool reports
give or take its rounding; a contributed run from it joins the reference history once
reviewed. Issue 58: a version not written in ASCII digits never breaks a page."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from pytest_django.asserts import assertContains, assertNotContains

from benchmarks import compare, history, versions
from benchmarks.machines import same_machine
from benchmarks.models import Run, Suite
from benchmarks.services import importing, review
from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory
from tests.benchmarks.helpers import OLTP_RW

pytestmark = pytest.mark.django_db

# As bench/sysbench_runs.sh (free -g truncates 23.5 GiB) and bench/submit_run.py (which
# rounds it) describe one machine with 24,683,772 kB of memory.
REFERENCE = "AMD EPYC, 2 cores, 23 GiB RAM"
SUBMITTED = "AMD EPYC, 2 cores, 24 GiB RAM"


def _account(django_user_model, name, publisher=False):
    user = django_user_model.objects.create_user(name, f"{name}@example.org", "pw-123456789x")
    user.emailaddress_set.create(email=user.email, primary=True, verified=True)
    if publisher:
        user.user_permissions.add(Permission.objects.get(codename="publish_run"))
    return user


def _upload(client, user, slug, **fields):
    client.force_login(user)
    data = {
        "label": "nightly",
        "importer": "sysbench",
        "file": SimpleUploadedFile("out.txt", OLTP_RW.read_bytes()),
        "hardware": SUBMITTED,
        "os": "Debian GNU/Linux 12 (bookworm)",
        "source": "bench/submit_run.py on the suite's machine",
        "server_version": "10.11.19",
        "run_date": timezone.localdate().isoformat(),
        **fields,
    }
    return client.post(f"/api/benchmarks/{slug}/runs/", data)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (REFERENCE, SUBMITTED, True),
        ("AMD EPYC, 2 cores, 23 GiB RAM", "amd  epyc, 2 cores, 23.5 GiB", True),
        ("AMD EPYC, 2 cores, 23 GiB RAM", "AMD EPYC, 2 cores, 25 GiB RAM", False),
        ("AMD EPYC, 2 cores, 23 GiB RAM", "AMD EPYC, 4 cores, 23 GiB RAM", False),
        ("AMD EPYC, 2 cores, 23 GiB RAM", "Intel(R) Xeon(R) Processor, 2 cores, 23 GiB RAM", False),
        ("2 vCPU / 8 GiB", "2 vCPU / 8 GiB", True),
        ("2 vCPU / 8 GiB", "2 vCPU / 9 GiB", False),
        ("the author's own workstation", "", False),
    ],
)
def test_a_machine_is_its_cpu_cores_and_memory(a, b, same):
    assert same_machine(a, b) is same and same_machine(b, a) is same


@given(
    st.sampled_from(["AMD EPYC", "Intel(R) Xeon(R) Processor", "Apple M2"]),
    st.integers(1, 256),
    st.integers(1, 4096),
    st.integers(-3, 3),
)
def test_memory_reports_one_gib_apart_are_one_machine(cpu, cores, memory, apart):
    a = f"{cpu}, {cores} cores, {memory} GiB RAM"
    b = f"{cpu}, {cores} cores, {max(0, memory + apart)} GiB RAM"
    assert same_machine(a, b) is (abs(max(0, memory + apart) - memory) <= 1)
    assert not same_machine(a, f"{cpu}, {cores + 1} cores, {memory} GiB RAM")


def test_reproducer_a_contributed_run_from_the_suites_machine_joins_the_reference_history(
    client, django_user_model
):
    """Issue 57: a run from the suite's own machine, submitted by bench/submit_run.py as
    "24 GiB RAM", was OTHER MACHINE against "23 GiB RAM" and left out of the charts."""
    suite = SuiteFactory(slug="nightly-oltp", reference_hardware=REFERENCE)
    machine = _account(django_user_model, "suite-machine", publisher=True)
    for day in range(1, 5):  # the suite's own runs, as bench/sysbench_runs.sh labels them
        importing.import_run(
            suite=suite,
            label=f"reference {day}",
            raw=OLTP_RW.read_bytes(),
            file_name="out.txt",
            importer="sysbench",
            user=machine,
            hardware=REFERENCE,
            os="Debian GNU/Linux 12 (bookworm)",
            server_version="10.11.19-MariaDB-0+deb12u1",
            run_date=timezone.localdate() - timedelta(days=10 - day),
            source="bench/sysbench_runs.sh",
        )
    contributor = _account(django_user_model, "perf-engineer")
    response = _upload(
        client, contributor, suite.slug, server_version="10.11.19", label="contributed-42"
    )
    assert response.status_code == 201, response.content
    drafted = Run.objects.get(pk=response.json()["run"])
    assert drafted.status == Run.Status.DRAFT

    page = client.get(f"/benchmarks/{suite.slug}/")
    assert all(drafted not in chart["runs"] for chart in _histories(suite))
    assertNotContains(page, "contributed-42")  # a draft is not public

    review.publish_run(drafted, _account(django_user_model, "reviewer", publisher=True))
    page = client.get(f"/benchmarks/{suite.slug}/")
    assert page.context["elsewhere"] == set()
    assertNotContains(page, "Not all on one machine")
    assertNotContains(page, "other machine")
    joined = [h for h in _histories(suite) if drafted in h["runs"]]
    assert joined and all(len(h["runs"]) == 5 for h in joined)
    assert page.context["no_version_history"].startswith(
        "Every run of this suite measured 10.11.19,"
    )


def _histories(suite):
    runs = list(Suite.objects.with_published_runs().get(pk=suite.pk).runs.all())
    return history.histories(versions.reference_runs(suite, runs), axis=suite.history_axis)


def test_a_printed_version_is_the_release_it_names_in_history_compare_and_filters(
    client, admin_client, django_user_model
):
    """Issue 57: "Across server versions" took 10.11.19 and 10.11.19-MariaDB-0+deb12u1 for
    two versions. Uploads store the release, what the server printed beside it."""
    suite = SuiteFactory(slug="versions", history_axis=Suite.HistoryAxis.VERSION)
    publisher = _account(django_user_model, "ci-machine", publisher=True)
    printed = ["10.11.19", "10.11.19-MariaDB-0+deb12u1", "11.4.10-MariaDB-log", "11.4.9"]
    for version in printed:
        response = _upload(client, publisher, suite.slug, server_version=version, label=version)
        assert response.status_code == 201, response.content
    runs = {run.label: run for run in Run.objects.filter(suite=suite)}
    assert runs["10.11.19-MariaDB-0+deb12u1"].server_version == "10.11.19"
    assert runs["10.11.19-MariaDB-0+deb12u1"].server_build == "10.11.19-MariaDB-0+deb12u1"
    assert runs["11.4.10-MariaDB-log"].server_version == "11.4.10"
    assert runs["10.11.19"].server_build == ""

    page = client.get(f"/benchmarks/{suite.slug}/")
    labels = {tuple(chart["labels"]) for chart in page.context["version_charts"]}
    assert labels == {("10.11.19", "11.4.9", "11.4.10")}
    assert [history.axis_label(run, "version") for run in _histories(suite)[0]["runs"]] == [
        "10.11.19",
        "10.11.19",
        "11.4.9",
        "11.4.10",
    ]
    found = compare.differences(runs["10.11.19"], runs["10.11.19-MariaDB-0+deb12u1"])
    assert found["configuration"] == [] and found["like_for_like"]
    run_page = client.get(runs["11.4.10-MariaDB-log"].get_absolute_url())
    assertContains(run_page, "11.4.10 (the server printed 11.4.10-MariaDB-log)")
    changelist = admin_client.get("/admin/benchmarks/run/")
    assertContains(changelist, "?server_version=10.11.19", count=1)


@pytest.mark.parametrize("version", ["１１.４.９", "1¹.4.9", "11.4.9²", "٣.٤.٥"])
def test_reproducer_a_version_in_other_digits_is_refused_and_stores_nothing(
    client, django_user_model, version
):
    suite = SuiteFactory(slug="drafts")
    contributor = _account(django_user_model, "perf-engineer")
    response = _upload(client, contributor, suite.slug, server_version=version)
    assert response.status_code == 400
    assert "server_version" in response.json()["fields"]
    assert "must start with a release written with the digits 0-9" in response.json()["error"]
    form = client.post(
        f"/benchmarks/{suite.slug}/submit/",
        {
            "label": "x",
            "file": SimpleUploadedFile("out.txt", OLTP_RW.read_bytes()),
            "server_version": version,
        },
    )
    assert form.status_code == 400
    assert "server_version" in form.context["form"].errors
    assert not Run.objects.filter(suite=suite).exists()


def test_reproducer_a_published_superscript_version_breaks_no_page(client):
    """Issue 58: a published run whose version held a superscript digit made the suite
    page, its ?x=version view and both regression feeds answer 500 (version_key)."""
    suite = SuiteFactory(slug="thread-pool", history_axis=Suite.HistoryAxis.VERSION)
    for order, version in enumerate(["11.4.8", "11.4.9", "1¹.4.9", "11.4.10", "11.4.11"]):
        run = RunFactory(suite=suite, server_version=version, order=order)
        MeasurementFactory(run=run, value=100.0 + order, parameters={"version": order})
    for url in [
        "/benchmarks/thread-pool/",
        "/benchmarks/thread-pool/?x=version",
        "/benchmarks/thread-pool/regressions.atom",
        "/benchmarks/regressions.atom",
        "/api/benchmarks/thread-pool.json",
    ]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    "today",
    [date(2027, 12, 31), date(2028, 1, 2), date(2028, 2, 29), date(2028, 3, 1), date(2028, 9, 30)],
)
def test_a_history_across_years_month_ends_and_29_february(client, django_user_model, today):
    """Runs measured on the days up to today, whatever today is: ordered by the date
    measured across the turn of a year, a month's end and 29 February, the step flagged at
    the right run and dated by the day it was measured, tomorrow refused."""
    with time_machine.travel(datetime.combine(today, time(9), tzinfo=UTC), tick=False):
        assert timezone.localdate() == today
        suite = SuiteFactory(slug="over-time")
        days = [today - timedelta(days=k) for k in range(5, -1, -1)]
        values = [1500.0, 1510.0, 1490.0, 1505.0, 1495.0, 300.0]  # a step down on the last day
        for day, value in zip(days, values, strict=True):
            run = RunFactory(suite=suite, run_date=day, label=f"run of {day}", hardware=REFERENCE)
            MeasurementFactory(run=run, value=value, parameters={"threads": 8})
        found = _histories(suite)
        assert [run.run_date for run in found[0]["runs"]] == days
        assert [history.axis_label(run) for run in found[0]["runs"]][-1] == today.isoformat()
        changes = history.changes(found[0]["runs"])
        assert [change["run"].run_date for change in changes] == [today]
        assert changes[0]["between"] == (
            f"the runs of {days[-2].isoformat()} and {today.isoformat()}"
        )
        feed = client.get("/benchmarks/over-time/regressions.atom").content.decode()
        measured = datetime.combine(today, time(), tzinfo=timezone.get_default_timezone())
        assert f"<updated>{measured.isoformat()}</updated>" in feed

        publisher = _account(django_user_model, "ci-machine", publisher=True)
        tomorrow = today + timedelta(days=1)
        refused = _upload(client, publisher, suite.slug, run_date=tomorrow.isoformat())
        assert refused.status_code == 400
        assert "a date in the future" in refused.json()["error"]
        taken = _upload(client, publisher, suite.slug, run_date=today.isoformat())
        assert taken.status_code == 201, taken.content


def test_29_february_is_a_date_only_in_leap_years(client, django_user_model):
    with time_machine.travel(datetime(2028, 3, 1, 9, tzinfo=UTC), tick=False):
        suite = SuiteFactory(slug="leap")
        publisher = _account(django_user_model, "ci-machine", publisher=True)
        assert _upload(client, publisher, suite.slug, run_date="2028-02-29").status_code == 201
        refused = _upload(client, publisher, suite.slug, run_date="2027-02-29")
        assert refused.status_code == 400
        assert "2027-02-29 is not a day of the calendar" in refused.json()["error"]
        full_width = _upload(client, publisher, suite.slug, run_date="２０２８-０２-２９")
        assert full_width.status_code == 400
        assert Run.objects.filter(suite=suite).count() == 1
