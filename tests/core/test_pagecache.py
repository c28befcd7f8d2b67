"""The anonymous page cache: shared pages are fresh, never personal, and CDN-friendly."""

import json
import math
import time
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, JsonResponse
from django.test import Client, RequestFactory
from django.utils import timezone

from benchmarks.models import Suite
from benchmarks.services.importing import import_run
from benchmarks.services.review import publish_run
from core import pagecache
from core.pagecache import HIT_HEADER
from foundation.models import NewsPost
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.clocks import ManualClock
from tests.feedback.factories import ReportFactory
from tests.foundation.factories import NewsPostFactory, UserFactory
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db
SYSBENCH_OUTPUT = Path(__file__).resolve().parents[1] / "benchmarks" / "data"


def anonymous_get(path, **headers):
    """A visitor who has never been here: a fresh client without cookies."""
    return Client().get(path, **headers)


def published_post(title, **fields):
    return NewsPostFactory(title=title, status=NewsPost.Status.PUBLISHED, **fields)


def test_second_anonymous_visitor_gets_the_stored_page():
    published_post("Foundation annual report")
    first = anonymous_get("/news/")
    second = anonymous_get("/news/")
    assert first[HIT_HEADER] == "miss" and second[HIT_HEADER] == "hit"
    assert second.content == first.content
    assert "Foundation annual report" in second.content.decode()


def test_shared_pages_carry_cache_validators_and_cdn_directives():
    response = anonymous_get("/about/board/")
    cache_control = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"public", "max-age=0", "s-maxage=60"} <= cache_control
    assert "Cookie" in response["Vary"]
    assert response["ETag"].startswith('"') and response["Last-Modified"].endswith("GMT")
    assert not response.cookies


@pytest.mark.parametrize("stored", [False, True], ids=["built", "from-cache"])
def test_conditional_requests_get_304_without_a_body(stored):
    first = anonymous_get("/about/governance/")
    if stored:
        assert anonymous_get("/about/governance/")[HIT_HEADER] == "hit"
    by_etag = anonymous_get("/about/governance/", HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = anonymous_get("/about/governance/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    for response in (by_etag, by_date):
        assert response.status_code == 304
        assert response.content == b""
        assert response["ETag"] == first["ETag"]
    assert anonymous_get("/about/governance/", HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_publishing_a_post_rebuilds_the_pages_that_show_it():
    assert "Release day" not in anonymous_get("/news/").content.decode()
    draft = NewsPostFactory(title="Release day", status=NewsPost.Status.DRAFT)
    assert "Release day" not in anonymous_get("/news/").content.decode()
    draft.status = NewsPost.Status.PUBLISHED
    draft.save()
    for path in ["/news/", "/"]:
        assert "Release day" in anonymous_get(path).content.decode(), path


def test_a_scheduled_post_appears_at_its_time_without_a_save():
    """The stored generation expires in Redis at the post's time (Redis keeps that clock,
    so the test waits for it, polling, instead of sleeping a fixed time)."""
    due = timezone.now() + timedelta(seconds=1)
    published_post("Scheduled for now", published_at=due)
    assert "Scheduled for now" not in anonymous_get("/news/").content.decode()
    assert anonymous_get("/news/")[HIT_HEADER] == "hit"
    deadline = time.monotonic() + 10
    while "Scheduled for now" not in anonymous_get("/news/").content.decode():
        assert time.monotonic() < deadline, "the scheduled post never appeared"
        time.sleep(0.05)
    assert timezone.now() >= due  # not before its time


def test_saving_a_release_rebuilds_the_download_pages():
    release = ReleaseFactory(version="11.4.90", is_published=False)
    ReleaseFileFactory(release=release)  # /download/ offers only releases with a file
    assert "11.4.90" not in anonymous_get("/download/").content.decode()
    release.is_published = True
    release.save()
    assert "11.4.90" in anonymous_get("/download/").content.decode()


def test_an_approved_sponsorship_appears_and_a_lapsed_one_goes(
    django_capture_on_commit_callbacks,
):
    organisation = OrganisationFactory(name="Acme Databases")
    sponsorship = applications.apply(
        organisation, TierFactory(), Sponsorship.Payment.CARD_ONCE, organisation.managers.first()
    )
    Sponsorship.objects.filter(pk=sponsorship.pk).update(paid_at=timezone.now())
    assert "Acme Databases" not in anonymous_get("/supporters/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    assert "Acme Databases" in anonymous_get("/supporters/").content.decode()
    after_grace = timezone.localdate() + timedelta(days=365 + lifecycle.GRACE_DAYS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert lifecycle.run_renewals(today=after_grace)["lapsed"] == 1
    assert "Acme Databases" not in anonymous_get("/supporters/").content.decode()


def test_updated_rollups_rebuild_the_usage_statistics(settings):
    from feedback.trends.rollups import update_rollups

    settings.FEEDBACK_MIN_BUCKET_SERVERS = 1
    before = anonymous_get("/feedback/").context["data"]
    assert anonymous_get("/feedback/")[HIT_HEADER] == "hit"
    ReportFactory.create_batch(3)
    update_rollups()
    after = anonymous_get("/feedback/")
    assert after[HIT_HEADER] == "miss"
    assert after.context["data"] != before


def test_an_imported_benchmark_run_appears_on_its_suite_page():
    suite = Suite.objects.create(slug="pool", title="Thread pool", is_published=True)
    assert "pool-of-threads" not in anonymous_get("/benchmarks/pool/").content.decode()
    raw = (SYSBENCH_OUTPUT / "sysbench-1.0.20-real-pool-16.txt").read_bytes()
    # bench/sysbench_runs.sh on this machine (benchmarks/demo_data/sysbench/environment.txt)
    run = import_run(
        suite=suite,
        label="pool-of-threads",
        raw=raw,
        file_name="run.txt",
        run_date=date(2026, 11, 22),
        server_version="10.11.19-MariaDB-0+deb12u1",
        hardware="AMD EPYC, 2 cores, 23 GiB RAM",
        os="Debian GNU/Linux 12 (bookworm)",
        source="bench/sysbench_runs.sh",
    )
    # An upload is a draft until reviewed: the stored page stays right, without it.
    assert "pool-of-threads" not in anonymous_get("/benchmarks/pool/").content.decode()
    publish_run(run, reviewer=None)
    assert "pool-of-threads" in anonymous_get("/benchmarks/pool/").content.decode()


def test_signed_in_visitors_always_get_fresh_private_pages(client):
    anonymous_get("/news/")  # a stored anonymous page exists
    user = UserFactory(email="ada@example.org")
    client.force_login(user)
    for _ in range(2):
        response = client.get("/news/")
        assert HIT_HEADER not in response
        assert "Sign out" in response.content.decode()
        cache_control = response["Cache-Control"]
        assert "private" in cache_control and "public" not in cache_control
        assert "s-maxage" not in cache_control


def test_a_page_seen_by_a_signed_in_user_never_reaches_anonymous_visitors(client):
    staff = UserFactory(email="grace.staff@example.org", is_staff=True)
    client.force_login(staff)
    signed_in = client.get("/")
    token = signed_in.context["csrf_token"]
    assert "Sign out" in signed_in.content.decode()

    for _ in range(2):
        html = anonymous_get("/").content.decode()
        assert "Sign out" not in html and 'href="/admin/"' not in html
        assert "grace.staff" not in html
        assert str(token) not in html
        assert "csrfmiddlewaretoken" not in html
        assert "Sign in" in html


def test_a_visitor_with_a_pending_message_sees_it_and_nobody_else_does():
    messaged = Client()
    storage = CookieStorage(HttpRequest())
    encoded = storage._encode([_message("Thank you: your message has reached the staff.")])
    messaged.cookies[CookieStorage.cookie_name] = encoded
    anonymous_get("/about/board/")  # stored without the message

    own = messaged.get("/about/board/")
    assert HIT_HEADER not in own
    assert "your message has reached the staff" in own.content.decode()
    assert "private" in own["Cache-Control"]
    later = anonymous_get("/about/board/")
    assert later[HIT_HEADER] == "hit"
    assert "your message has reached the staff" not in later.content.decode()


def _message(text):
    from django.contrib.messages.storage.base import Message

    return Message(message_levels.SUCCESS, text)


PAGES_WITHOUT_FORMS = [
    "/", "/about/", "/about/board/", "/about/staff/", "/about/governance/", "/about/meetings/",
    "/news/", "/supporters/", "/sponsors/", "/download/", "/download/repo-config/",
    "/feedback/", "/feedback/privacy/", "/benchmarks/", "/accessibility/",
]  # fmt: skip


@pytest.mark.parametrize("path", PAGES_WITHOUT_FORMS)
def test_anonymous_pages_set_no_cookie(path):
    for _ in range(2):  # built, then from the cache
        response = anonymous_get(path)
        assert response.status_code == 200
        assert not response.cookies, response.cookies
        assert "public" in response["Cache-Control"]


def test_a_news_post_with_its_comment_form_is_shared_only_without_the_form(client):
    post = published_post("Comments welcome")
    html = anonymous_get(post.get_absolute_url()).content.decode()
    assert "csrfmiddlewaretoken" not in html and "Sign in</a> to comment" in html
    client.force_login(UserFactory())
    own = client.get(post.get_absolute_url())
    assert "csrfmiddlewaretoken" in own.content.decode() and "private" in own["Cache-Control"]


def test_the_contact_form_works_while_pages_are_cached(mailoutbox):
    visitor = Client(enforce_csrf_checks=True)
    assert visitor.get("/news/")[HIT_HEADER] == "miss"
    form = visitor.get("/contact/")
    assert HIT_HEADER not in form or form[HIT_HEADER] != "hit"
    assert "csrftoken" in form.cookies and "private" in form["Cache-Control"]
    token = form.context["csrf_token"]
    sent = visitor.post(
        "/contact/",
        {"name": "Ada", "email": "ada@example.org", "topic": "general",
         "message": "Hello from a cached site.", "csrfmiddlewaretoken": str(token)},
    )  # fmt: skip
    assert sent.status_code == 302
    # The form page itself is never shared: another visitor gets their own token.
    other = Client(enforce_csrf_checks=True).get("/contact/")
    assert other.context["csrf_token"] != token


def test_pages_are_built_when_the_cache_is_down(settings, caplog):
    from core import pagecache

    published_post("Still here")
    pagecache._Warned.at = -math.inf
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    for path in ["/news/", "/about/board/"]:
        response = anonymous_get(path)
        assert response.status_code == 200
        assert HIT_HEADER not in response or response[HIT_HEADER] == "miss"
    assert "Still here" in anonymous_get("/news/").content.decode()
    warnings = [r for r in caplog.records if r.name == "core.pagecache"]
    assert len(warnings) == 1 and "pages are built uncached" in warnings[0].getMessage()


def test_a_comment_hidden_by_staff_leaves_the_shared_page(admin_client):
    from foundation.models import NewsComment

    post = published_post("Open thread")
    comment = NewsComment.objects.create(
        post=post, author=UserFactory(), body="Buy cheap pills at spam.example"
    )
    assert "spam.example" in anonymous_get(post.get_absolute_url()).content.decode()
    assert anonymous_get(post.get_absolute_url())[HIT_HEADER] == "hit"
    hidden = admin_client.post(
        "/admin/foundation/newscomment/",
        {"action": "hide", "_selected_action": [comment.pk]},
    )
    assert hidden.status_code == 302
    assert "spam.example" not in anonymous_get(post.get_absolute_url()).content.decode()


def test_a_process_keeps_its_own_copy_at_most_a_second_after_another_one_changed_content(
    settings, monkeypatch
):
    from django.core.cache import cache

    from core import pagecache
    from core.pagecache import GENERATION_KEY

    clock = ManualClock()
    monkeypatch.setattr(pagecache, "time", clock)
    settings.PAGE_CACHE_LOCAL_SECONDS = 1
    post = published_post("First headline")
    assert "First headline" in anonymous_get("/news/").content.decode()
    # Another process edits the post: the rows change and the generation goes, and this
    # process hears nothing of it.
    NewsPost.objects.filter(pk=post.pk).update(title="Second headline")
    cache.delete(GENERATION_KEY)
    assert "First headline" in anonymous_get("/news/").content.decode()
    clock.advance(0.9)
    assert "First headline" in anonymous_get("/news/").content.decode()
    clock.advance(0.2)
    assert "Second headline" in anonymous_get("/news/").content.decode()
    # A change this process makes itself is shown at once.
    post.refresh_from_db()
    post.title = "Third headline"
    post.save()
    assert "Third headline" in anonymous_get("/news/").content.decode()


def test_stored_pages_are_served_while_the_database_is_down(monkeypatch):
    from django.db import DatabaseError
    from django.db.backends.utils import CursorWrapper

    published_post("Served from the cache")
    anonymous_get("/news/")

    def database_down(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", database_down)
    response = anonymous_get("/news/")
    assert response.status_code == 200 and response[HIT_HEADER] == "hit"
    assert "Served from the cache" in response.content.decode()


def test_under_steady_traffic_a_copy_in_process_memory_is_never_older_than_a_second(
    settings, monkeypatch
):
    """Other pages keep the process's generation check fresh; a live answer that expired
    in the cache must still not be served from this process's memory (the feedback
    summary once stayed stale this way for as long as traffic went on)."""
    settings.PAGE_CACHE_LOCAL_SECONDS = 1
    settings.API_CACHE_LIVE_SECONDS = 5
    clock = ManualClock()
    monkeypatch.setattr(pagecache, "time", clock)
    builds = iter(range(1, 100))
    view = pagecache.shared_response(
        lambda request: JsonResponse({"build": next(builds)}), live=True
    )
    factory = RequestFactory()
    summary = lambda: json.loads(view(factory.get("/api/summary")).content)["build"]  # noqa: E731
    assert summary() == 1
    cache.delete_pattern(f"{pagecache.PAGE_KEY_PREFIX}:*")  # the stored answer expired
    clock.advance(0.6)
    other = pagecache.shared_response(lambda request: JsonResponse({}), live=True)
    other(factory.get("/api/other"))  # another answer: the generation is checked again
    clock.advance(0.6)
    assert summary() == 2  # 1.2 s old in memory: asked of the cache, found gone, rebuilt
