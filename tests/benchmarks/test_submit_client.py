"""Issue 38, done when: a non-staff account makes a token, submits a real sysbench output
with bench/submit_run.py against the real API, sees the draft, staff publish it, and the
history across versions places it by its version."""

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from benchmarks.models import Run
from benchmarks.services import importing, review
from tests.benchmarks.factories import SuiteFactory
from tests.benchmarks.helpers import DATA, OLTP_RW

pytestmark = pytest.mark.django_db(transaction=True)
CLIENT = Path(__file__).resolve().parents[2] / "bench" / "submit_run.py"


def _client(*arguments, token="", site=""):
    return subprocess.run(
        [sys.executable, str(CLIENT), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "BENCHMARK_TOKEN": token, "BENCHMARK_SITE": site},
        check=False,
    )


def test_a_contributor_submits_with_the_client_and_the_published_run_is_placed_by_version(
    live_server, django_user_model
):
    suite = SuiteFactory(slug="community-oltp", title="Community OLTP")
    reviewer = django_user_model.objects.create_user(
        "reviewer", "reviewer@example.org", "pw-123456789x", is_staff=True
    )
    reviewer.user_permissions.add(Permission.objects.get(codename="publish_run"))
    # Two published runs of other versions, on the machine this test runs on (as the
    # client describes it), from the real outputs in tests/benchmarks/data.
    machine = _client("--dry-run", "--suite", "x", "--label", "x", str(OLTP_RW)).stdout
    hardware = next(line for line in machine.splitlines() if '"hardware"' in line)
    hardware = hardware.split(": ", 1)[1].strip().strip('",')
    for version in ["11.4.4", "10.6.20"]:
        importing.import_run(
            suite=suite,
            label=f"reference {version}",
            raw=OLTP_RW.read_bytes(),
            file_name="out.txt",
            importer="sysbench",
            user=reviewer,
            server_version=version,
            hardware=hardware,
            os="Debian GNU/Linux 12 (bookworm)",
            run_date=date(2026, 11, 23),
            source="tests/benchmarks/data",
        )

    contributor = django_user_model.objects.create_user(
        "perf-engineer", "perf@example.org", "pw-123456789x"
    )
    contributor.emailaddress_set.create(email=contributor.email, primary=True, verified=True)
    browser = Client()
    browser.force_login(contributor)
    key = browser.post("/accounts/benchmarks/tokens/", {"name": "CI runner"}).context["new_key"][
        "key"
    ]

    done = _client(
        "--suite",
        "community-oltp",
        "--label",
        "ci oltp_read_write",
        "--server-version",
        "10.11.19",
        str(OLTP_RW),
        token=key,
        site=live_server.url,
    )
    assert done.returncode == 0, done.stderr
    run = Run.objects.get(label="ci oltp_read_write")
    status_url = f"{live_server.url}/api/benchmarks/community-oltp/runs/{run.pk}/"
    assert done.stdout.splitlines()[0] == f"draft: {status_url}"
    assert run.status == Run.Status.DRAFT and run.uploaded_by == contributor
    # provenance gathered on the machine
    assert run.hardware == hardware and " cores, " in run.hardware and "GiB RAM" in run.hardware
    assert run.os and run.run_date is not None and run.client == "sysbench 1.0.20"
    assert run.source.startswith("bench/submit_run.py on ")
    assert run.missing_provenance() == []
    page = browser.get("/accounts/benchmarks/")
    assert "Draft: awaiting review" in page.content.decode()

    review.publish_run(run, reviewer)
    versions = Client().get("/benchmarks/community-oltp/").context["version_charts"]
    assert versions[0]["labels"] == ["10.6.20", "10.11.19", "11.4.4"]
    assert versions[0]["table"]["rows"][1][1] == "ci oltp_read_write"


def test_the_client_prints_the_sites_refusal(live_server, django_user_model):
    SuiteFactory(slug="community-oltp")
    done = _client(
        "--suite",
        "community-oltp",
        "--label",
        "x",
        str(DATA / "sysbench-1.0.20-cpu-p99.txt"),
        token="bench_not-a-real-token",
        site=live_server.url,
    )
    assert done.returncode == 1
    assert done.stderr == "refused (401): Unknown or revoked token.\n"


def test_the_client_runs_sysbench_itself_and_submits_its_fresh_output(
    live_server, django_user_model
):
    """A fresh output of Debian's sysbench (scripts/ensure-services.sh installs it), run by
    the client with --run: every figure it printed is stored, as a draft."""
    SuiteFactory(slug="community-cpu")
    contributor = django_user_model.objects.create_user("ci", "ci@example.org", "pw-123456789x")
    contributor.emailaddress_set.create(email=contributor.email, primary=True, verified=True)
    browser = Client()
    browser.force_login(contributor)
    key = browser.post("/accounts/benchmarks/tokens/", {"name": "CI"}).context["new_key"]["key"]
    done = _client(
        "--suite",
        "community-cpu",
        "--label",
        "cpu prime sieve",
        "--server-version",
        "10.11.19",
        "--run",
        "sysbench cpu --threads=1 --time=1 --percentile=99 run",
        token=key,
        site=live_server.url,
    )
    assert done.returncode == 0, done.stderr
    run = Run.objects.get(label="cpu prime sieve")
    assert done.stdout.startswith("draft: ") and done.stdout.split()[1].endswith(f"/runs/{run.pk}/")
    assert run.client == "sysbench 1.0.20"
    metrics = set(run.measurements.values_list("metric", flat=True))
    assert {"events per second", "99th percentile latency"} <= metrics
    assert run.attachments.get().description == "sysbench-output.txt"
