import threading
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django_celery_beat.models import PeriodicTask
from pytest_django.asserts import assertContains

from feedback.ingest import build_raw_report, store_reports
from feedback.models import RawReport, Report, Server
from feedback.services import processing
from feedback.tasks import process_pending_reports
from tests.feedback.captures import data_part, split_http
from tests.feedback.factories import RawReportFactory

UID_A = "BRQuphxhO/ivzmSTEp4J9xb4UxI="
UID_B = "Mh18W1yxIhsOliT8P7BY/q5hprs="


def full_report(fixture_requests):
    return data_part(split_http(fixture_requests["full-10.11-debian12"])[2])


def short(uid, when="startup"):
    return (
        f"FEEDBACK_SERVER_UID\t{uid}\x00\nFEEDBACK_WHEN\t{when}\nFEEDBACK_USER_INFO\t\n\n".encode()
    )


@pytest.mark.django_db
def test_unparseable_report_keeps_its_bytes_and_gets_the_reason():
    raw = build_raw_report(
        b"FEEDBACK_SERVER_UID\t" + UID_A.encode() + b"\nFEEDBACK_WHEN\tsoon\n",
        path="/rest/v1/post",
        is_test=False,
    )
    store_reports([raw])
    result = processing.process_pending()
    raw.refresh_from_db()
    assert (result.processed, result.rejected) == (0, 1)
    assert raw.status == RawReport.Status.REJECTED
    assert "FEEDBACK_WHEN" in raw.rejection_reason
    assert bytes(raw.body)
    assert Report.objects.count() == 0


@pytest.mark.django_db
def test_processing_twice_changes_nothing(fixture_requests):
    store_reports(
        [build_raw_report(full_report(fixture_requests), path="/rest/v1/post", is_test=False)]
    )
    assert processing.process_pending().processed == 1
    assert processing.process_pending().total == 0
    assert Report.objects.count() == 1
    assert Server.objects.get().reports_count == 1


@pytest.mark.django_db
def test_reprocess_replaces_the_parsed_row(fixture_requests):
    raw = build_raw_report(full_report(fixture_requests), path="/rest/v1/post", is_test=False)
    store_reports([raw])
    processing.process_pending()
    processing.reprocess([raw.pk])
    assert Report.objects.filter(raw=raw).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_workers_process_each_report_exactly_once():
    uids = [UID_A, UID_B]
    store_reports(
        [
            build_raw_report(short(uids[i % 2]), path="/rest/v1/post", is_test=False)
            for i in range(60)
        ]
    )
    barrier = threading.Barrier(3)
    errors = []

    def worker():
        try:
            barrier.wait()
            while processing.process_pending(batch_size=7).total:
                pass
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert Report.objects.count() == 60
    assert RawReport.objects.filter(status="processed").count() == 60
    assert sorted(Server.objects.values_list("reports_count", flat=True)) == [30, 30]


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_are_each_committed_before_their_answer():
    """One transaction per report (PostgreSQL's commit_delay lets them share WAL flushes)."""
    barrier = threading.Barrier(24)
    statuses = []

    def post(i):
        body = (
            b'----boundary\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n\r\n'
            + short(UID_A if i % 2 else UID_B)
            + b"----boundary--\r\n"
        )
        barrier.wait()
        response = Client().generic(
            "POST", "/rest/v1/post", body, content_type="multipart/form-data; boundary=--boundary"
        )
        statuses.append((response.status_code, b"<h1>ok</h1>" in response.content))
        connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [(200, True)] * 24
    assert RawReport.objects.count() == 24
    # processing is woken at most once an interval per process; the sweep takes the rest
    process_pending_reports()
    assert Report.objects.count() == 24
    # two distinct bodies: processing, which sees every committed report, flags each copy
    # after the first of its body as a resend
    assert RawReport.objects.filter(is_resend=False).count() == 2


def test_beat_schedules_are_stored_in_the_database(beat_schedules):
    tasks = set(PeriodicTask.objects.values_list("task", flat=True))
    assert {
        "feedback.tasks.process_pending_reports",
        "feedback.tasks.prune_raw_reports",
        "feedback.tasks.prepare_partitions",
    } <= tasks


@pytest.mark.django_db
def test_staff_can_read_a_raw_report_in_the_admin(admin_client, fixture_requests):
    raw = build_raw_report(full_report(fixture_requests), path="/rest/v1/post", is_test=False)
    store_reports([raw])
    response = admin_client.get(f"/admin/feedback/rawreport/{raw.pk}/change/")
    assert response.status_code == 200
    assert b"Uname_distribution" in response.content


class _StyledElements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.styled = []

    def handle_starttag(self, tag, attrs):
        if any(name == "style" for name, _ in attrs) or tag == "style":
            self.styled.append(tag)


@pytest.mark.django_db
def test_the_raw_report_page_keeps_to_the_content_security_policy(admin_client, fixture_requests):
    """The CSP's style-src is 'self' (issue 47, item 13): an inline style was refused by
    the browser and the report's box did not scroll."""
    raw = build_raw_report(full_report(fixture_requests), path="/rest/v1/post", is_test=False)
    store_reports([raw])
    response = admin_client.get(f"/admin/feedback/rawreport/{raw.pk}/change/")
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    parser = _StyledElements()
    parser.feed(response.content.decode())
    assert parser.styled == []
    assert b'<pre class="raw-report">' in response.content
    assert b"/static/css/admin-feedback.css" in response.content


def test_staff_see_how_many_reports_wait_to_be_processed(admin_client):
    """Issue 49: the admin's list of received reports gave no count of those waiting."""
    RawReportFactory.create_batch(3)
    RawReportFactory(status=RawReport.Status.PROCESSED)
    response = admin_client.get("/admin/feedback/rawreport/")
    assertContains(
        response,
        "<strong>3</strong> reports waiting to be processed (the oldest received",
        html=False,
    )
    assertContains(response, 'href="/feedback/staff/">Feedback processing overview</a>')
    RawReport.objects.update(status=RawReport.Status.PROCESSED)
    assertContains(
        admin_client.get("/admin/feedback/rawreport/"),
        "<strong>0</strong> reports waiting to be processed.",
    )
