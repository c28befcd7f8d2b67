"""Issue 35: the reports of concurrent requests share one INSERT and one commit
(feedback.ingest.GroupCommit), and no request is answered before its own batch is
committed."""

import threading
import time

import pytest
from django.db import connection

from feedback import ingest
from feedback.ingest import GroupCommit, StorageUnavailable, build_raw_report
from feedback.models import RawReport
from feedback.parser import ReportError
from feedback.services import intake, processing

REPORT = b"FEEDBACK_SERVER_UID\tBRQuphxhO/ivzmSTEp4J9xb4UxI=\nVERSION\t10.11.6-MariaDB\n"


def raw(marker: str):
    return build_raw_report(REPORT + f"X\t{marker}\n".encode(), path="/rest/v1/post", is_test=False)


def wait_until(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


class HeldWriter:
    """A batch writer whose first batch waits until ``release`` is set, so that the
    requests arriving meanwhile queue up behind it."""

    def __init__(self, write=None, fail_batch: int | None = None):
        self.batches: list[list[str]] = []
        self.release = threading.Event()
        self.write = write
        self.fail_batch = fail_batch

    def __call__(self, slots):
        number = len(self.batches)
        self.batches.append([slot.report.path for slot in slots])
        if number == 0:
            assert self.release.wait(10)
        if number == self.fail_batch:
            raise StorageUnavailable("the database went away")
        if self.write is not None:
            self.write(slots)


def submit_in_threads(group, names, results):
    def post(name):
        report = build_raw_report(b"x", path=name, is_test=False)
        try:
            group.submit(report, None)
            results[name] = "stored"
        except StorageUnavailable as error:
            results[name] = f"unavailable: {error}"

    threads = {name: threading.Thread(target=post, args=(name,)) for name in names}
    for thread in threads.values():
        thread.start()
    return threads


def test_reports_arriving_during_a_commit_share_the_next_one():
    writer = HeldWriter()
    group = GroupCommit(writer)
    results = {}
    first = submit_in_threads(group, ["a"], results)
    wait_until(lambda: len(writer.batches) == 1)
    rest = submit_in_threads(group, ["b", "c", "d"], results)
    wait_until(lambda: len(group._waiting) == 3)
    assert results == {}  # nobody is answered while the first commit is under way
    writer.release.set()
    for thread in [*first.values(), *rest.values()]:
        thread.join(10)
    assert writer.batches[0] == ["a"]
    assert sorted(writer.batches[1]) == ["b", "c", "d"]
    assert len(writer.batches) == 2
    assert results == dict.fromkeys("abcd", "stored")


def test_a_failed_batch_fails_each_of_its_requests_and_the_next_batch_goes_on():
    writer = HeldWriter(fail_batch=1)
    group = GroupCommit(writer)
    results = {}
    first = submit_in_threads(group, ["a"], results)
    wait_until(lambda: len(writer.batches) == 1)
    second = submit_in_threads(group, ["b", "c"], results)
    wait_until(lambda: len(group._waiting) == 2)
    writer.release.set()
    for thread in [*first.values(), *second.values()]:
        thread.join(10)
    assert results["a"] == "stored"
    assert results["b"].startswith("unavailable") and results["c"].startswith("unavailable")
    third = submit_in_threads(group, ["e"], results)
    third["e"].join(10)
    assert results["e"] == "stored"


def test_a_bug_in_the_writer_answers_nothing_as_stored():
    def broken(slots):
        raise RuntimeError("a bug")

    group = GroupCommit(broken)
    with pytest.raises(RuntimeError):
        group.submit(raw("a"), None)
    assert group._writing is False  # the next request writes again


@pytest.mark.django_db(transaction=True)
def test_one_insert_stores_a_batch_and_processing_flags_a_repeat_within_it():
    writer = HeldWriter(write=ingest._write_batch)
    group = GroupCommit(writer)
    reports = {"first": raw("first"), "same-1": raw("same"), "same-2": raw("same")}
    done = []

    def post(name):
        group.submit(reports[name], None)
        done.append(name)
        connection.close()

    threads = [threading.Thread(target=post, args=("first",))]
    threads[0].start()
    wait_until(lambda: len(writer.batches) == 1)
    for name in ("same-1", "same-2"):
        threads.append(threading.Thread(target=post, args=(name,)))
        threads[-1].start()
    wait_until(lambda: len(group._waiting) == 2)
    writer.release.set()
    for thread in threads:
        thread.join(10)

    assert len(writer.batches) == 2 and sorted(done) == ["first", "same-1", "same-2"]
    assert not RawReport.objects.filter(is_resend=True).exists()  # flagged when processed
    processing.process_pending()
    stored = list(RawReport.objects.order_by("id").values_list("sha256", "is_resend"))
    assert [resend for _, resend in stored] == [False, False, True]
    assert stored[1][0] == stored[2][0] == reports["same-1"].sha256
    assert {reports[name].pk for name in reports} == set(
        RawReport.objects.values_list("id", flat=True)
    )


def test_a_report_the_parser_refuses_never_reaches_a_batch(db, monkeypatch):

    monkeypatch.setattr(ingest.GROUP_COMMIT, "_write", lambda slots: pytest.fail("written"))
    with pytest.raises(ReportError):
        intake.accept_report(b"not a report", path="/rest/v1/post", handover=None)
