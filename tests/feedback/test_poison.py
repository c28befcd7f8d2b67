"""One bad report never holds up the others, and what is acknowledged is never stuck."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedback import parser
from feedback.models import RawReport, Report, Server
from feedback.services import processing
from feedback.trends.synthetic import full_report
from tests.feedback.factories import RawReportFactory

pytestmark = pytest.mark.django_db
BOUNDARY = "--------------------------ba4f3696b39f"


def with_row(body: bytes, name: str, value: str) -> bytes:
    """The report with one row's value replaced."""
    lines = body.decode().split("\n")
    return "\n".join(
        f"{name}\t{value}" if line.partition("\t")[0] == name else line for line in lines
    ).encode()


def store(bodies):
    return [RawReportFactory(body=body) for body in bodies]


def parsed_rows():
    return sorted(
        Report.objects.values_list("server__uid", "version", "cpu_count", "memory_bytes", "engines")
    )


@pytest.mark.parametrize("cpu_count", ["999999999992", "-4"])
def test_a_poison_report_changes_nothing_for_the_valid_ones_in_its_batch(cpu_count):
    valid = [full_report(number) for number in range(6)]
    store(valid)
    processing.process_all_pending()
    expected = parsed_rows()
    Report.objects.all().delete()
    Server.objects.all().delete()
    RawReport.objects.all().delete()

    poison = with_row(full_report(99), "Cpu_count", cpu_count)
    raws = store([*valid[:3], poison, *valid[3:]])
    result = processing.process_pending(batch_size=50)

    assert (result.processed, result.rejected) == (6, 1)
    assert parsed_rows() == expected
    rejected = RawReport.objects.get(pk=raws[3].pk)
    assert rejected.status == RawReport.Status.REJECTED
    assert f"Cpu_count {cpu_count} is out of range" in rejected.rejection_reason
    assert bytes(rejected.body) == poison  # the raw bytes are kept
    assert not RawReport.objects.pending().exists()


def test_a_value_the_database_refuses_is_isolated_too(monkeypatch):
    # A gap in the parser's checks: the database refuses the row, the batch goes on.
    monkeypatch.setattr(parser, "INTEGER_MAX", 2**40)
    valid = [full_report(number) for number in range(4)]
    raws = store([valid[0], with_row(full_report(50), "Cpu_count", "999999999992"), *valid[1:]])

    result = processing.process_pending(batch_size=50)

    assert (result.processed, result.rejected) == (4, 1)
    assert Report.objects.count() == 4
    assert sorted(Server.objects.values_list("reports_count", flat=True)) == [1, 1, 1, 1]
    refused = RawReport.objects.get(pk=raws[1].pk)
    assert refused.status == RawReport.Status.REJECTED
    assert "the database refused it" in refused.rejection_reason
    assert "out of range" in refused.rejection_reason


def test_the_sweep_moves_past_failing_rows_instead_of_retrying_them_forever():
    poison = [with_row(full_report(n), "Cpu_count", "-1") for n in range(100, 103)]
    store([*poison, *(full_report(n) for n in range(5))])
    result = processing.process_all_pending(batch_size=2)  # the poison fills the first batches
    assert (result.processed, result.rejected) == (5, 3)
    assert not RawReport.objects.pending().exists()
    assert processing.process_all_pending().total == 0


def test_the_endpoint_refuses_what_processing_would_reject(post_body):
    body = with_row(full_report(7), "Cpu_count", "999999999992").decode()
    response = post_body(body)
    assert response.status_code == 400
    assert b"Cpu_count 999999999992 is out of range" in response.content
    assert RawReport.objects.count() == 0


REAL_NAMES = [line.partition("\t")[0] for line in full_report(0).decode().split("\n") if line]
hostile_value = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=30),
    st.sampled_from(["", "startup", "shutdown", "report", "\x00", "1e9", " 42 ", "0x1F"]),
)
hostile_name = st.one_of(
    st.sampled_from([*REAL_NAMES, "FEEDBACK_WHEN", "Cpu_count", "Mem_total", "VERSION"]),
    st.text(min_size=1, max_size=220),
    st.sampled_from(["\x00", "\x00\x00\x00", "N" * 201, "FEATURE_X", "Collation used z", "x used"]),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    number=st.integers(0, 7),
    changes=st.lists(st.tuples(hostile_name, hostile_value), min_size=1, max_size=4),
)
def test_everything_acknowledged_is_processed_never_stuck(client, number, changes):
    RawReport.objects.all().delete()
    body = full_report(number).decode().rstrip("\n") + "\n"
    for name, value in changes:
        if name in REAL_NAMES and number % 2:
            body = with_row(body.encode(), name, value).decode()
        else:
            body += f"{name}\t{value}\n"
    payload = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n{body}\n--{BOUNDARY}--\r\n"
    ).encode("utf-8", "surrogatepass")
    response = client.generic(
        "POST", "/rest/v1/post", payload, content_type=f"multipart/form-data; boundary={BOUNDARY}"
    )
    assert response.status_code in {200, 400}
    processing.process_all_pending()
    if response.status_code == 200:  # acknowledged: processed, never rejected or stuck
        assert list(RawReport.objects.values_list("status", "rejection_reason")) == [
            ("processed", "")
        ]
    else:
        assert response.content.startswith(b"Not a feedback report: ")
        assert RawReport.objects.count() == 0


def test_a_bug_on_one_report_does_not_wedge_the_batch(monkeypatch):
    real_row = processing.report_row

    def failing_row(report, **kwargs):
        if report.cpu_count == 13:
            raise ValueError("a processing bug")
        return real_row(report, **kwargs)

    monkeypatch.setattr(processing, "report_row", failing_row)
    raws = store([full_report(1), with_row(full_report(2), "Cpu_count", "13"), full_report(3)])
    assert processing.process_all_pending().processed == 2
    odd_one = RawReport.objects.get(pk=raws[1].pk)
    assert odd_one.status == RawReport.Status.REJECTED
    assert "processing failed: ValueError('a processing bug')" in odd_one.rejection_reason
    assert not RawReport.objects.pending().exists()
