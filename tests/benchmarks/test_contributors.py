"""Issue 38: anyone with a verified account submits runs, with personal tokens made on
their account page (shown once, hashed, named, revocable) or with the web form; drafts
and their state on the account page; a mail when a reviewer publishes or rejects."""

import hashlib
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from benchmarks import mail as benchmark_mail
from benchmarks.models import Run, SubmissionToken
from benchmarks.services import review
from core.transitions import TransitionRefused
from outbox.models import OutboxItem
from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory
from tests.benchmarks.helpers import OLTP_RW, OLTP_RW_PROVENANCE
from tests.benchmarks.test_upload_limits import hyperfine

pytestmark = pytest.mark.django_db
ACCOUNT = "/accounts/benchmarks/"


@pytest.fixture
def suite():
    suite = SuiteFactory(slug="community", title="Community runs")
    run = RunFactory(suite=suite, label="reference", run_date=date(2026, 11, 22))
    MeasurementFactory(run=run, value=500.0, parameters={"threads": 8})
    return suite


def _account(django_user_model, name, verified=True, **extra):
    user = django_user_model.objects.create_user(
        name, f"{name}@example.org", "pw-123456789x", **extra
    )
    user.emailaddress_set.create(email=user.email, primary=True, verified=verified)
    return user


@pytest.fixture
def contributor(django_user_model):
    return _account(django_user_model, "perf-engineer")


@pytest.fixture
def reviewer(django_user_model):
    user = _account(django_user_model, "reviewer", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="publish_run"))
    return user


def _make_token(client, user, name="CI: x86-64 runner"):
    client.force_login(user)
    response = client.post(f"{ACCOUNT}tokens/", {"name": name})
    assert response.status_code == 200, response.content
    return response, response.context["new_key"]["key"]


def _submit(client, key, slug="community", **fields):
    data = {
        "label": "my CI run",
        "importer": "sysbench",
        "file": SimpleUploadedFile("out.txt", OLTP_RW.read_bytes()),
        **OLTP_RW_PROVENANCE,
        **fields,
    }
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}
    return client.post(f"/api/benchmarks/{slug}/runs/", data, **headers)


def test_a_token_is_shown_once_and_only_its_hash_is_stored(client, contributor):
    response, key = _make_token(client, contributor)
    assertContains(response, f'value="{key}"')
    assertContains(response, "it will not be shown again")
    token = SubmissionToken.objects.get(user=contributor)
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {token.key_hash, token.prefix, token.name}
    assert key.startswith(token.prefix)
    page = client.get(ACCOUNT)
    assertNotContains(page, key)
    assertContains(page, f"<code>{token.prefix}…</code>", html=True)
    assertContains(page, "<th scope='row'>CI: x86-64 runner</th>", html=True)


def test_a_contributor_holds_several_named_tokens_and_revokes_one(client, contributor, suite):
    _, first = _make_token(client, contributor, "CI: arm64")
    _, second = _make_token(client, contributor, "laptop")
    again = client.post(f"{ACCOUNT}tokens/", {"name": "laptop"})
    assert again.status_code == 400
    assertContains(again, "You already have a token named “laptop”.", status_code=400)
    arm = SubmissionToken.objects.get(name="CI: arm64")
    client.post(f"{ACCOUNT}tokens/{arm.pk}/revoke/")
    client.logout()
    revoked = _submit(client, first)
    assert revoked.status_code == 401
    assert revoked.json() == {"detail": "Unknown or revoked token."}
    assert _submit(client, second).status_code == 201


def test_another_account_cannot_revoke_my_token(client, contributor, django_user_model):
    _make_token(client, contributor)
    token = SubmissionToken.objects.get()
    client.force_login(_account(django_user_model, "someone-else"))
    response = client.post(f"{ACCOUNT}tokens/{token.pk}/revoke/", follow=True)
    assertContains(response, "You have no such token")
    token.refresh_from_db()
    assert token.revoked_at is None


def test_a_verified_contributor_submits_a_draft_and_sees_it_on_their_page(
    client, contributor, suite
):
    _, key = _make_token(client, contributor)
    client.logout()
    response = _submit(client, key)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft"
    run = Run.objects.get(pk=body["run"])
    assert run.uploaded_by == contributor and run.status == Run.Status.DRAFT
    assert body["status_url"].endswith(f"/api/benchmarks/community/runs/{run.pk}/")
    assert client.get(body["status_url"], HTTP_AUTHORIZATION=f"Token {key}").json()["status"] == (
        "draft"
    )
    client.force_login(contributor)
    page = client.get(ACCOUNT)
    assertContains(page, '<td class="run-state">Draft: awaiting review</td>', html=True)
    assertContains(page, "<th scope='row'>my CI run</th>", html=True)
    # the public still does not see it
    client.logout()
    assertNotContains(client.get("/benchmarks/community/"), "my CI run")


def test_an_unverified_account_cannot_make_a_token_or_submit(client, django_user_model, suite):
    user = _account(django_user_model, "unverified", verified=False)
    client.force_login(user)
    page = client.get(ACCOUNT)
    assertContains(page, "Submitting needs a verified e-mail address.")
    assertNotContains(page, "Make a token")
    refused = client.post(f"{ACCOUNT}tokens/", {"name": "CI"})
    assert refused.status_code == 400 and not SubmissionToken.objects.exists()
    response = _submit(client, None)  # with the session
    assert response.status_code == 403
    assert "verified e-mail address" in response.json()["detail"]
    assert client.get("/benchmarks/community/submit/").status_code == 403
    assert not Run.objects.filter(uploaded_by=user).exists()


def test_a_session_may_submit_through_the_api_too(client, contributor, suite):
    client.force_login(contributor)
    response = _submit(client, None)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "draft"


def test_submissions_are_rate_limited_per_account_counting_only_stored_runs(
    client, contributor, suite, settings, django_user_model
):
    settings.BENCHMARK_SUBMIT_RATE = "2/h"
    _, key = _make_token(client, contributor)
    client.logout()
    refused_file = _submit(client, key, file=SimpleUploadedFile("bad.txt", b"not an output"))
    assert refused_file.status_code == 400  # a refusal does not count
    assert _submit(client, key).status_code == 201
    assert _submit(client, key).status_code == 201
    third = _submit(client, key)
    assert third.status_code == 429
    assert int(third["Retry-After"]) > 0
    assert "too many submissions" in third.json()["error"]
    assert Run.objects.filter(uploaded_by=contributor).count() == 2
    # the limit is the account's: another contributor is not held back
    _, other = _make_token(client, _account(django_user_model, "other"))
    client.logout()
    assert _submit(client, other).status_code == 201


def _hyperfine_upload(commands):
    return {
        "importer": "hyperfine",
        "file": SimpleUploadedFile("many.json", hyperfine(commands)),
    }


def test_the_limit_counts_runs_not_uploads(client, contributor, suite, settings):
    """Issue 47, item 8: documented as 30 stored runs an hour, one account stored 777
    draft runs in 20 minutes with 30 uploads of up to 200 runs each."""
    settings.BENCHMARK_SUBMIT_RATE = "5/h"
    _, key = _make_token(client, contributor)
    client.logout()
    stored = Run.objects.filter(uploaded_by=contributor)
    assert _submit(client, key, **_hyperfine_upload(3)).status_code == 201
    assert stored.count() == 3
    more_than_the_limit = _submit(client, key, **_hyperfine_upload(6))
    assert more_than_the_limit.status_code == 400  # waiting would not help
    assert (
        "an account may store 5 runs in a period (5/h): split the file"
        in (more_than_the_limit.json()["error"])
    )
    over = _submit(client, key, **_hyperfine_upload(3))  # 2 of 5 left: stores nothing
    assert over.status_code == 429 and int(over["Retry-After"]) > 3000
    assert over.json()["error"] == (
        "too many submissions: the file holds 3 series, each a run; you may store 2 more "
        f"runs now (5/h) and may submit again in {over['Retry-After']} seconds"
    )
    assert stored.count() == 3
    assert _submit(client, key, **_hyperfine_upload(2)).status_code == 201
    assert _submit(client, key).status_code == 429  # even one run, in one upload
    assert stored.count() == 5
    # an hour after the first upload its runs stop counting
    stored.update(created_at=timezone.now() - timedelta(minutes=61))
    assert _submit(client, key, **_hyperfine_upload(5)).status_code == 201
    assert stored.count() == 10


def test_the_web_form_counts_runs_too(client, contributor, suite, settings):
    settings.BENCHMARK_SUBMIT_RATE = "4/h"
    client.force_login(contributor)
    fields = {"label": "from the form", **OLTP_RW_PROVENANCE}
    response = client.post("/benchmarks/community/submit/", {**fields, **_hyperfine_upload(3)})
    assert response.status_code == 302
    response = client.post("/benchmarks/community/submit/", {**fields, **_hyperfine_upload(2)})
    assert response.status_code == 429
    assertContains(response, "you may store 1 more runs now", status_code=429)
    assertContains(response, 'value="from the form"', status_code=429)  # kept as typed
    assert Run.objects.filter(uploaded_by=contributor).count() == 3


def test_the_web_form_stores_a_draft(client, contributor, suite):
    client.force_login(contributor)
    form = client.get("/benchmarks/community/submit/")
    assertContains(form, "Your run arrives as a draft")
    response = client.post(
        "/benchmarks/community/submit/",
        {
            "label": "from the form",
            "importer": "sysbench",
            "file": SimpleUploadedFile("out.txt", OLTP_RW.read_bytes()),
            **OLTP_RW_PROVENANCE,
        },
        follow=True,
    )
    assertContains(response, "Your run “from the form” is stored, a draft")
    assertContains(response, "<th scope='row'>from the form</th>", html=True)
    run = Run.objects.get(label="from the form")
    assert run.status == Run.Status.DRAFT and run.uploaded_by == contributor
    assert run.measurements.count() > 10


def test_the_web_form_refuses_a_broken_output_and_stores_nothing(client, contributor, suite):
    client.force_login(contributor)
    before = Run.objects.count()
    response = client.post(
        "/benchmarks/community/submit/",
        {
            "label": "broken",
            "importer": "sysbench",
            "file": SimpleUploadedFile("out.txt", OLTP_RW.read_bytes()[:1500]),
        },
    )
    assert response.status_code == 400
    assertContains(response, "Could not import", status_code=400)
    assert Run.objects.count() == before


def test_an_unpublished_suite_takes_no_contribution(client, contributor):
    SuiteFactory(slug="hidden", is_published=False)
    client.force_login(contributor)
    assert _submit(client, None, slug="hidden").status_code == 404
    assert client.get("/benchmarks/hidden/submit/").status_code == 404


def test_publishing_mails_the_contributor_after_the_commit(
    client, contributor, reviewer, suite, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(contributor)
    run = Run.objects.get(pk=_submit(client, None).json()["run"])
    with django_capture_on_commit_callbacks(execute=True):
        review.publish_run(run, reviewer)
    assert OutboxItem.objects.get(kind=benchmark_mail.REVIEW_MAIL).status == OutboxItem.Status.DONE
    (mail,) = mailoutbox
    assert mail.to == [contributor.email]
    assert mail.subject == "Your benchmark run “my CI run” is published"
    assert f"/benchmarks/community/runs/{run.pk}/" in mail.body
    page = client.get(ACCOUNT)
    assertContains(
        page,
        f"<th scope='row'><a href='/benchmarks/community/runs/{run.pk}/'>my CI run</a></th>",
        html=True,
    )


def test_a_rejection_mails_the_reason_and_the_page_shows_it(
    client, contributor, reviewer, suite, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(contributor)
    run = Run.objects.get(pk=_submit(client, None).json()["run"])
    reason = "The server version is a development build; say which commit."
    with django_capture_on_commit_callbacks(execute=True):
        review.reject_run(run, reviewer, reason)
    (mail,) = mailoutbox
    assert mail.subject == "Your benchmark run “my CI run” was not published"
    assert reason in mail.body
    assertContains(client.get(ACCOUNT), f'<td class="run-state">Rejected: {reason}</td>', html=True)


def test_a_review_rolled_back_sends_nothing(
    contributor, reviewer, suite, client, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(contributor)
    run = Run.objects.get(pk=_submit(client, None).json()["run"])
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(TransitionRefused),
    ):
        review.reject_run(run, reviewer, "   ")
    assert (
        mailoutbox == [] and not OutboxItem.objects.filter(kind=benchmark_mail.REVIEW_MAIL).exists()
    )


def test_a_publisher_still_publishes_directly_and_is_not_limited(client, reviewer, suite, settings):
    settings.BENCHMARK_SUBMIT_RATE = "1/h"
    _, key = _make_token(client, reviewer)
    client.logout()
    for _ in range(2):
        response = _submit(client, key)
        assert response.status_code == 201
        assert response.json()["status"] == "published"
