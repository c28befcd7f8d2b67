"""Issue 13 item 5: a benchmark import is complete or refused, and a raw file is refused by
its size before its bytes are read."""

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from rest_framework.authtoken.models import Token

from benchmarks.admin import SuiteAdmin
from benchmarks.api import RunUploadAPI
from benchmarks.models import Attachment, Measurement, Run, Suite
from benchmarks.services import importing

pytestmark = pytest.mark.django_db
DATA = Path(__file__).parent / "data"
REPORT = (DATA / "sysbench-1.0.20-oltp-rw-p99-intervals.txt").read_bytes()
HALF = REPORT[: len(REPORT) // 2 + 200]  # cut inside the SQL statistics block


@pytest.fixture
def suite():
    return Suite.objects.create(slug="uploads", title="Uploads", is_published=True)


@pytest.fixture
def staff_token(django_user_model):
    user = django_user_model.objects.create_user(
        "bot", "bot@example.org", "pw-123456789x", is_staff=True
    )
    return Token.objects.create(user=user).key


def stored():
    return Run.objects.count(), Measurement.objects.count(), Attachment.objects.count()


def post(client, token, **fields):
    data = {"label": "run", "file": SimpleUploadedFile("out.txt", REPORT), **fields}
    return client.post("/api/benchmarks/uploads/runs/", data, HTTP_AUTHORIZATION=f"Token {token}")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"file": SimpleUploadedFile("half.txt", HALF)},
            "the output is incomplete: it stops at line",
        ),
        ({"parameters": "[64]"}, "parameters: expected a JSON object"),
        ({"parameters": '"threads"'}, "parameters: expected a JSON object"),
        ({"parameters": "{threads: 64}"}, "parameters: not valid JSON"),
        ({"variant": '{"patch": ["a", "b"]}'}, "variant: the value of 'patch' must be a number"),
        ({"variant": '{"patch": {"nested": 1}}'}, "variant: the value of 'patch' must be a number"),
        ({"file": SimpleUploadedFile("bin.txt", b"\xff\xfe\x00sysbench")}, "not UTF-8"),
    ],
)
def test_upload_api_refuses_partial_output_and_wrong_types_naming_the_problem(
    client, suite, staff_token, fields, message
):
    before = stored()
    response = post(client, staff_token, **fields)
    assert response.status_code == 400, response.content
    assert message in response.json()["error"]
    assert stored() == before


def test_upload_api_accepts_the_whole_report(client, suite, staff_token):
    response = post(
        client, staff_token, parameters='{"workload": "oltp_read_write"}', variant='{"build": 2}'
    )
    assert response.status_code == 201, response.content
    run = Run.objects.get(pk=response.json()["run"])
    assert run.variant == {"build": 2}
    assert run.client == "sysbench 1.0.20"
    assert run.measurements.get(metric="99th percentile latency").parameters == {
        "workload": "oltp_read_write",
        "threads": 4,
    }


class Stream(io.BytesIO):
    """A request body that records whether anyone read it."""

    def __init__(self, data=b""):
        super().__init__(data)
        self.reads = 0

    def read(self, *args):
        self.reads += 1
        return super().read(*args)

    def readline(self, *args):
        self.reads += 1
        return super().readline(*args)


def _request_with_body(path, declared_length, token=None):
    request = RequestFactory().post(path)
    request.META["CONTENT_TYPE"] = "multipart/form-data; boundary=xyz"
    request.META["CONTENT_LENGTH"] = str(declared_length)
    request._stream = body = Stream(b"--xyz\r\n")
    if token:
        request.META["HTTP_AUTHORIZATION"] = f"Token {token}"
    return request, body


def test_upload_api_refuses_by_declared_size_before_reading_the_body(suite, staff_token):
    request, body = _request_with_body(
        "/api/benchmarks/uploads/runs/", 250 * 1024 * 1024, staff_token
    )
    response = RunUploadAPI.as_view()(request, slug="uploads")
    assert response.status_code == 413
    assert "larger than 5 MiB" in response.data["error"]
    assert body.reads == 0
    # The same request within the limit does reach the body: the check above is what stopped it.
    request, body = _request_with_body("/api/benchmarks/uploads/runs/", 1024, staff_token)
    assert RunUploadAPI.as_view()(request, slug="uploads").status_code == 400
    assert body.reads > 0


def test_admin_import_refuses_by_declared_size_before_reading_the_body(suite, admin_user):
    from django.contrib import admin

    view = SuiteAdmin(Suite, admin.site).import_view
    request, body = _request_with_body(
        f"/admin/benchmarks/suite/{suite.pk}/import/", 250 * 1024 * 1024
    )
    request.user = admin_user
    response = view(request, suite.pk)
    assert response.status_code == 200
    assert "larger than 5 MiB" in response.content.decode()
    assert body.reads == 0
    assert stored() == (0, 0, 0)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"file": SimpleUploadedFile("half.txt", HALF)}, "the output is incomplete"),
        ({"parameters": "[1, 2]"}, "parameters: expected a JSON object"),
        ({"variant": '{"a": null}'}, "variant: the value of &#x27;a&#x27; must be a number"),
    ],
)
def test_admin_import_shows_the_problem_as_a_form_error(admin_client, suite, fields, message):
    data = {
        "label": "run",
        "file": SimpleUploadedFile("out.txt", REPORT),
        "parameters": "{}",
        "variant": "{}",
    }
    response = admin_client.post(f"/admin/benchmarks/suite/{suite.pk}/import/", {**data, **fields})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert stored() == (0, 0, 0)


def test_repetitions_of_a_point_become_its_samples(suite):
    run = importing.import_run(suite=suite, label="r", raw=REPORT, file_name="rep-1.txt")
    importing.add_raw_output(
        run,
        raw=(DATA / "sysbench-1.0.20-reference.txt").read_bytes(),
        file_name="ref.txt",
        parameters={"threads": 4},
    )
    tps = run.measurements.get(metric="transactions per second")
    assert tps.samples == [110.8, 71.3]
    assert tps.value == pytest.approx((110.8 + 71.3) / 2)
    assert (tps.minimum, tps.maximum) == (71.3, 110.8)
    assert [f["file"] for f in Run.objects.get(pk=run.pk).details["files"]] == [
        "rep-1.txt",
        "ref.txt",
    ]


def test_a_tool_name_too_long_for_the_run_is_not_copied_into_it(client, suite, staff_token):
    report = json.loads((DATA / "jmh.json").read_text())
    report[0]["jmhVersion"] = "1." + "9" * 300  # the tool names itself: "JMH <version>"
    upload = SimpleUploadedFile("jmh.json", json.dumps(report).encode())
    response = post(client, staff_token, file=upload, importer="jmh")
    assert response.status_code == 201, response.content
    run = Run.objects.get()
    assert run.client == ""
    assert run.details["files"][0]["tool"].startswith("JMH 1.999")  # kept in the details
