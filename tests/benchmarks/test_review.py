"""Issue 29: review before publishing, provenance, comparisons that warn, history on a real
axis, images with context. Issue 24 (finding 7): the upload API answers 400 with a reason,
never 500, and a refusal stores nothing."""

import importlib
from datetime import date, datetime
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from pytest_django.asserts import assertContains
from rest_framework.authtoken.models import Token

from benchmarks.charts import describe_change
from benchmarks.models import Attachment, Measurement, Run, Suite
from benchmarks.services import permissions, review
from core.checks import check_private_uploads_are_not_served
from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory
from tests.benchmarks.helpers import OLTP_RW, OLTP_RW_PROVENANCE

pytestmark = pytest.mark.django_db
DRAFT_LABEL = "oltp_read_write from a contributor"


@pytest.fixture
def suite():
    suite = SuiteFactory(slug="reviewed", title="Reviewed suite")
    for label, value in [("baseline", 500.0), ("tuned", 650.0)]:
        run = RunFactory(suite=suite, label=label, run_date=date(2026, 11, 22))
        MeasurementFactory(run=run, value=value, parameters={"threads": 4})
    return suite


def _user(django_user_model, name, publish=False):
    user = django_user_model.objects.create_user(
        name, f"{name}@example.org", "pw-123456789x", is_staff=True
    )
    if publish:
        user.user_permissions.add(
            Permission.objects.get(codename="publish_run"),
            Permission.objects.get(codename="view_run"),
            Permission.objects.get(codename="change_run"),
        )
    return user


def _token(user):
    token, _ = Token.objects.get_or_create(user=user)
    return {"HTTP_AUTHORIZATION": f"Token {token.key}"}


def _upload(client, headers, slug="reviewed", **fields):
    data = {
        "label": DRAFT_LABEL,
        "importer": "sysbench",
        "file": SimpleUploadedFile("contributed.txt", OLTP_RW.read_bytes()),
        **OLTP_RW_PROVENANCE,
        **fields,
    }
    return client.post(f"/api/benchmarks/{slug}/runs/", data, **headers)


def _stored():
    return Run.objects.count(), Measurement.objects.count(), Attachment.objects.count()


def test_an_upload_without_publish_run_is_a_draft_that_the_public_never_sees(
    client, suite, django_user_model, django_assert_max_num_queries
):
    uploader = _user(django_user_model, "contributor")
    response = _upload(client, _token(uploader))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft" and "url" not in body
    draft = Run.objects.get(pk=body["run"])
    attachment = draft.attachments.get()

    public = {
        "/benchmarks/reviewed/": 200,
        "/benchmarks/reviewed/compare/": 200,
        "/api/benchmarks/reviewed.json": 200,
        "/api/benchmarks/reviewed.csv": 200,
        "/benchmarks/reviewed/charts/transactions-per-second.svg": 200,
        "/benchmarks/reviewed/regressions.atom": 200,
        "/benchmarks/regressions.atom": 200,
        "/search/?q=contributor": 200,
        f"/benchmarks/reviewed/runs/{draft.pk}/": 404,
        f"/benchmarks/reviewed/files/{attachment.pk}/": 404,
        f"/benchmarks/reviewed/compare/?a={draft.pk}&b={draft.pk}": 200,
    }
    for url, code in public.items():
        answer = client.get(url)
        assert answer.status_code == code, url
        assert DRAFT_LABEL.encode() not in answer.content, url
        assert b"contributed.txt" not in answer.content, url
    # The raw file is kept in the private folder, which the web server does not serve.
    stored = Path(attachment.file.path)
    assert stored.is_relative_to(settings.PRIVATE_MEDIA_ROOT) and stored.is_file()
    assert not any(Path(settings.MEDIA_ROOT).rglob("contributed.txt"))

    # The uploader reads the state; another account is told nothing about it.
    with django_assert_max_num_queries(6):
        state = client.get(body["status_url"], **_token(uploader)).json()
    assert state["status"] == "draft"
    assert state["waiting_for"] == "review by the foundation's staff"
    stranger = _user(django_user_model, "stranger")
    assert client.get(body["status_url"], **_token(stranger)).status_code == 404


def test_a_drafts_raw_file_is_read_by_its_uploader_and_the_reviewers_only(
    client, suite, django_user_model
):
    uploader = _user(django_user_model, "contributor")
    draft = Run.objects.get(pk=_upload(client, _token(uploader)).json()["run"])
    url = f"/benchmarks/reviewed/files/{draft.attachments.get().pk}/"
    with pytest.raises(ValueError):  # no address under /media/ exists for it
        _ = draft.attachments.get().file.url

    readers = {
        "anonymous": (None, 404),
        "another account": (_user(django_user_model, "stranger"), 404),
        "its uploader": (uploader, 200),
        "a reviewer": (_user(django_user_model, "reviewer", publish=True), 200),
    }
    for who, (user, code) in readers.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code == code, who
        if code == 200:
            assert b"".join(response.streaming_content) == OLTP_RW.read_bytes()
            assert "no-store" in response["Cache-Control"], who

    # The reviewer's admin page links to that view, not to a file address.
    client.force_login(readers["a reviewer"][0])
    page = client.get(f"/admin/benchmarks/run/{draft.pk}/change/")
    assertContains(page, f'<a href="{url}">contributed.txt</a>', html=True)

    client.logout()
    review.publish_run(draft, readers["a reviewer"][0])
    response = client.get(url)
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_deploy_check_refuses_a_private_folder_inside_the_public_one(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "media" / "private"
    (error,) = check_private_uploads_are_not_served(None)
    assert error.id == "core.E004"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    assert check_private_uploads_are_not_served(None) == []


def test_a_reviewer_publishes_a_complete_draft_and_rejects_with_a_reason(
    client, suite, django_user_model
):
    contributor = _user(django_user_model, "contributor")
    headers = _token(contributor)
    complete = Run.objects.get(pk=_upload(client, headers).json()["run"])
    bare = _upload(
        client, headers, label="no provenance", run_date="", hardware="", os="", source=""
    ).json()
    assert bare["missing_provenance"] == [
        "the date measured",
        "the hardware",
        "the operating system",
        "the source (an article or a CI job)",
    ]

    # A staff member without publish_run is not offered the review actions.
    client.force_login(_user(django_user_model, "viewer"))
    changelist = client.get("/admin/benchmarks/run/")
    assert b'value="publish"' not in changelist.content
    assert b'value="reject"' not in changelist.content

    client.force_login(_user(django_user_model, "reviewer", publish=True))
    assert b'value="publish"' in client.get("/admin/benchmarks/run/").content
    response = client.post(
        "/admin/benchmarks/run/",
        {"action": "publish", "_selected_action": [complete.pk, bare["run"]]},
        follow=True,
    )
    text = response.content.decode()
    assert "Published 1 run(s)." in text
    assert (
        "Not published: “no provenance”: cannot be published without its provenance: it lacks "
        "the date measured, the hardware, the operating system, the source"
    ) in text
    assert Run.objects.get(pk=bare["run"]).status == Run.Status.DRAFT
    client.logout()
    assert DRAFT_LABEL.encode() in client.get("/benchmarks/reviewed/").content
    assert client.get(complete.get_absolute_url()).status_code == 200

    client.force_login(Run.objects.get(pk=complete.pk).reviewed_by)
    form = client.post(
        "/admin/benchmarks/run/", {"action": "reject", "_selected_action": [bare["run"]]}
    )
    assert b"The uploader sees the reason" in form.content
    assert Run.objects.get(pk=bare["run"]).status == Run.Status.DRAFT  # nothing yet
    client.post(
        "/admin/benchmarks/run/",
        {
            "action": "reject",
            "_selected_action": [bare["run"]],
            "reason": "Say when and on what it was measured.",
        },
    )
    client.logout()
    state = client.get(bare["status_url"], **headers).json()
    assert state == {
        "run": bare["run"],
        "status": "rejected",
        "status_url": bare["status_url"],
        "reason": "Say when and on what it was measured.",
    }


def test_an_account_with_publish_run_publishes_directly_but_not_without_provenance(
    client, suite, django_user_model
):
    headers = _token(_user(django_user_model, "ci-machine", publish=True))
    before = _stored()
    refused = _upload(client, headers, hardware="", source="")
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        "cannot be published without its provenance: it lacks the hardware, "
        "the source (an article or a CI job)"
    )
    assert _stored() == before
    published = _upload(client, headers, source_url="https://ci.example.org/job/1")
    assert published.status_code == 201 and published.json()["status"] == "published"
    assert DRAFT_LABEL.encode() in client.get("/benchmarks/reviewed/").content


def test_every_demo_run_is_published_with_its_provenance_and_the_jdbc_clients_follow_the_article(
    client,
):
    from benchmarks import demo

    demo.load(log=lambda m: None)
    runs = list(Run.objects.select_related("suite"))
    assert runs and all(run.status == Run.Status.PUBLISHED for run in runs)
    assert {run.label: run.missing_provenance() for run in runs if run.missing_provenance()} == {}
    jdbc = {run.label: run for run in Run.objects.filter(suite__slug="jdbc-drivers")}
    assert {run.source_url for run in jdbc.values()} == {
        "https://mariadb.org/on-performance-of-jdbc-drivers/"
    }
    assert "useConfigs=maxPerformance" in jdbc["ConnectorJ-5.1.24"].client
    assert "useConfigs" not in jdbc["MariaDB-JDBC-1.1.2"].client
    assert "Java" not in jdbc["C client (native)"].client
    assert jdbc["C client (native)"].client.startswith("the native C client library")
    page = client.get(f"/benchmarks/jdbc-drivers/runs/{jdbc['MariaDB-JDBC-1.1.2'].pk}/")
    html = page.content.decode()
    assert "<dt>Date measured</dt><dd>not stated by the source</dd>" in html
    assert (
        '<a href="https://mariadb.org/on-performance-of-jdbc-drivers/">'
        "“On performance of JDBC drivers”, mariadb.org</a>"
    ) in html


@pytest.mark.parametrize(
    ("fields", "file", "reason"),
    [
        ({"parameters": '{"threads": 1e309}'}, None, "parameters: the value of 'threads': not a"),
        ({"parameters": '{"threads": -1e309}'}, None, "not a finite number"),
        ({"server_version": "1" * 500}, None, "server_version: Ensure this field has no more"),
        ({"label": "x" * 121}, None, "label: Ensure this field has no more than 120"),
        ({"os": "Debian\x07"}, None, "os: has the character U+0007"),
        ({"variant": '{"build": "\\u0000"}'}, None, "variant: the value of 'build': has"),
        ({"variant": '{"build": "\\ud800"}'}, None, "variant: the value of 'build': has"),
        ({"parameters": '{"threads": ' + "9" * 30 + "}"}, None, "out of range"),
        ({"run_date": "2999-01-01"}, None, "run_date: a date in the future"),
        ({"unstated": "source"}, None, "unstated: unknown 'source'"),
        (
            {},
            OLTP_RW.read_bytes().replace(
                b"Number of threads: 4", b"Number of threads: " + b"4" * 400
            ),
            "out of range",
        ),
        (
            {},
            OLTP_RW.read_bytes().replace(b"334    (110.80", b"3" * 400 + b"    (110.80"),
            "transactions: the value is not a finite number a chart can show",
        ),
    ],
)
def test_uploads_beyond_what_the_models_hold_are_refused_with_a_reason(
    client, suite, django_user_model, fields, file, reason
):
    headers = _token(_user(django_user_model, "contributor"))
    if file is not None:
        fields = {**fields, "file": SimpleUploadedFile("out.txt", file)}
    before = _stored()
    response = _upload(client, headers, **fields)
    assert response.status_code == 400, response.content
    assert reason in response.json()["error"]
    assert _stored() == before


def _run(suite, label, value, unit="ms", higher=False, **environment):
    run = RunFactory(suite=suite, label=label, **environment)
    MeasurementFactory(run=run, metric="latency", unit=unit, higher_is_better=higher, value=value)
    return run


def test_a_change_reads_as_a_factor_and_a_percentage_by_direction():
    assert describe_change(10, 50, False, "ms")["text"] == "5.0× slower (+400%)"
    assert describe_change(50, 10, False, "ms")["text"] == "5.0× faster (−80.0%)"
    assert describe_change(1000, 1494, True, "tps")["text"] == "1.49× faster (+49.4%)"
    assert describe_change(100, 50, True, "queries/s")["text"] == "2.0× slower (−50.0%)"
    assert describe_change(40.6, 50.6, False, "GB")["text"] == "1.25× worse (+24.6%)"
    assert describe_change(0, 5, True, "tps") is None


def test_a_change_too_small_to_show_reads_no_change():
    # 0.03% reads "+0.0%" at the precision shown: "1.00 times slower" claims a direction
    assert describe_change(1000, 1000.3, False, "ms")["text"] == "no change"
    assert describe_change(1000, 999.8, True, "tps")["text"] == "no change"
    assert describe_change(1000, 1000, True, "tps")["text"] == "no change"
    assert describe_change(1000, 1000.6, True, "tps")["text"] == "1.00× faster (+0.1%)"


def test_compare_lists_every_difference_first_and_says_when_not_like_for_like(
    client, django_assert_max_num_queries
):
    suite = SuiteFactory()
    laptop = _run(suite, "laptop", 10.0, hardware="a laptop", run_date=date(2026, 11, 1))
    server = _run(suite, "server", 50.0, run_date=date(2026, 11, 2))
    again = _run(suite, "server again", 12.0, run_date=date(2026, 11, 3), server_version="11.4.3")
    url = f"/benchmarks/{suite.slug}/compare/?a={server.pk}&b={laptop.pk}"
    with django_assert_max_num_queries(8):
        html = client.get(url).content.decode()
    assert html.index("What differs between A and B") < html.index("5.0× faster (−80.0%)")
    assert (
        "<strong>Not like for like</strong>: hardware differs. A difference below may come "
        "from the environment"
    ) in html
    assert (
        '<th scope="row">Hardware</th><td>AMD EPYC, 2 cores, 23 GiB RAM</td><td>a laptop</td>'
        in html
    )
    # Without a choice the page starts from two comparable runs: the two on the same machine.
    start = client.get(f"/benchmarks/{suite.slug}/compare/").content.decode()
    assert f'<option value="{server.pk}" selected>' in start
    assert f'<option value="{again.pk}" selected>' in start
    assert "Not like for like" not in start
    assert "4.2× faster (−76.0%)" in start
    assert '<th scope="row">Server version</th><td>11.4.2</td><td>11.4.3</td>' in start


def test_history_by_server_version_ties_a_regression_to_two_releases(client):
    suite = SuiteFactory(history_axis=Suite.HistoryAxis.VERSION)
    values = [1.00, 1.02, 0.99, 1.01, 1.00, 0.98, 5.1, 5.0]
    for index, value in enumerate(values):
        _run(
            suite,
            f"nightly {index}",
            value,
            server_version=f"11.4.{index + 1}",
            run_date=date(2026, 11, 1 + index),
            server_config="--innodb-buffer-pool-size=8M" if index >= 6 else "",
        )
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    assert "it appeared between releases 11.4.6 and 11.4.7" in page
    assert "server options: – → --innodb-buffer-pool-size=8M" in page
    assert "5.0× slower" in page or "5.1× slower" in page
    svg = client.get(f"/benchmarks/{suite.slug}/history/0.svg").content.decode()
    assert "server version" in svg and "11.4.7" in svg and "environment changed" in svg


@override_settings(SITE_URL="https://mariadb.example.org")
def test_images_carry_suite_runs_machine_date_and_address_and_charts_offer_an_embed(client, suite):
    svg = client.get("/benchmarks/reviewed/charts/transactions-per-second.svg").content.decode()
    for text in [
        "Reviewed suite · transactions per second",
        "Runs: baseline, tuned",
        "Machine: AMD EPYC, 2 cores, 23 GiB RAM, Debian GNU/Linux 12 (bookworm)",
        "Measured: 2026-11-22",
        "https://mariadb.example.org/benchmarks/reviewed/charts/transactions-per-second/",
    ]:
        assert text in svg
    page = client.get("/benchmarks/reviewed/charts/transactions-per-second/").content.decode()
    assert (
        "&lt;a href=&quot;https://mariadb.example.org/benchmarks/reviewed/charts/"
        "transactions-per-second/&quot;&gt;&lt;img src=&quot;https://mariadb.example.org/"
        "benchmarks/reviewed/charts/transactions-per-second.png&quot;"
    ) in page
    assert 'data-copy="chart-transactions-per-second-embed"' in page


def test_measured_at_orders_a_history_on_one_day(client):
    suite = SuiteFactory()
    for minute, value in enumerate([100, 101, 99, 100, 102, 40]):
        run = RunFactory(
            suite=suite,
            label=f"run {minute}",
            run_date=date(2026, 11, 23),
            measured_at=datetime.fromisoformat(f"2026-11-23T08:3{minute}:00+00:00"),
        )
        MeasurementFactory(run=run, value=value)
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    assert "it appeared between the runs of 2026-11-23 08:34:00 and 2026-11-23 08:35:00" in page
    assert permissions.may_publish(None) is False


def test_the_migration_moves_files_uploaded_before_it_out_of_the_public_folder(suite):
    migration = importlib.import_module("benchmarks.migrations.0004_raw_files_private")
    name = default_storage.save("benchmarks/raw/2025/old/sysbench.txt", ContentFile(b"tps 1"))
    attachment = Attachment.objects.create(suite=suite, file=name)

    migration.into_the_private_folder(django_apps, None)
    assert not default_storage.exists(name)
    attachment.refresh_from_db()
    assert attachment.file.name == name
    assert attachment.file.read() == b"tps 1"
