"""What the edge (nginx's cache) may keep: shared pages are never personal, carry the
validators and directives the edge and browsers need, and a change to what they show
purges them from every edge through the outbox (core/edge.py, docs/caching.md)."""

import contextlib
import http.server
import threading
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection, transaction
from django.http import HttpRequest
from django.test import Client
from django.utils import timezone

from benchmarks.models import Suite
from benchmarks.services.importing import import_run
from benchmarks.services.review import publish_run
from core import edge, reads
from foundation.models import NewsPost
from outbox.apps import EDGE_PURGE
from outbox.models import OutboxItem
from sponsors.models import Sponsorship
from sponsors.services import applications, lifecycle
from tests.foundation.factories import NewsPostFactory, UserFactory
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db
SYSBENCH_OUTPUT = Path(__file__).resolve().parents[1] / "benchmarks" / "data"
EDGE_KEY = "httpsportal.example.org"  # nginx's key: scheme, host, then the address asked
FLOOD = 30


def anonymous_get(path, **headers):
    """A visitor who has never been here: a fresh client without cookies."""
    return Client().get(path, **headers)


def through_edge(path, client=None):
    """A GET as nginx passes it on: with the key it would keep the answer under."""
    return (client or Client()).get(path, HTTP_X_EDGE_CACHE_KEY=EDGE_KEY + path)


@contextlib.contextmanager
def set_up_quietly():
    """Content made before the change a test looks at, as if committed long ago: its
    transaction's callbacks and purges are dropped (tests run in one transaction, whose
    on-commit list would otherwise still hold the first purge's marker)."""
    with own_transaction():
        yield
    OutboxItem.objects.filter(kind=EDGE_PURGE).delete()
    reads.take_written(connection)  # what it wrote needs no purge


@contextlib.contextmanager
def own_transaction():
    """As if what happens inside were a transaction of its own, committed (without
    running its callbacks)."""
    start = len(connection.run_on_commit)
    yield
    del connection.run_on_commit[start:]


def published_post(title, **fields):
    return NewsPostFactory(title=title, status=NewsPost.Status.PUBLISHED, **fields)


def test_shared_pages_carry_cache_validators_and_cdn_directives():
    response = anonymous_get("/about/board/")
    cache_control = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"public", "max-age=0", "s-maxage=60"} <= cache_control
    assert "Cookie" in response["Vary"]
    assert response["ETag"].startswith('"') and response["Last-Modified"].endswith("GMT")
    assert not response.cookies


def test_conditional_requests_get_304_without_a_body():
    """How the edge revalidates an expired copy (proxy_cache_revalidate), and browsers."""
    first = anonymous_get("/about/governance/")
    by_etag = anonymous_get("/about/governance/", HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = anonymous_get("/about/governance/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    for response in (by_etag, by_date):
        assert response.status_code == 304
        assert response.content == b""
        assert response["ETag"] == first["ETag"]
    assert anonymous_get("/about/governance/", HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_publishing_a_post_shows_on_the_pages_that_show_it():
    assert "Release day" not in anonymous_get("/news/").content.decode()
    draft = NewsPostFactory(title="Release day", status=NewsPost.Status.DRAFT)
    assert "Release day" not in anonymous_get("/news/").content.decode()
    draft.status = NewsPost.Status.PUBLISHED
    draft.save()
    for path in ["/news/", "/"]:
        assert "Release day" in anonymous_get(path).content.decode(), path


def test_saving_a_release_shows_on_the_download_pages():
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
    # An upload is a draft until reviewed: the page stays right, without it.
    assert "pool-of-threads" not in anonymous_get("/benchmarks/pool/").content.decode()
    publish_run(run, reviewer=None)
    assert "pool-of-threads" in anonymous_get("/benchmarks/pool/").content.decode()


def test_signed_in_visitors_always_get_fresh_private_pages(client):
    user = UserFactory(email="ada@example.org")
    client.force_login(user)
    for _ in range(2):
        response = client.get("/news/")
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

    own = messaged.get("/about/board/", HTTP_X_EDGE_CACHE_KEY=EDGE_KEY + "/about/board/")
    assert "your message has reached the staff" in own.content.decode()
    assert "private" in own["Cache-Control"]
    assert EDGE_KEY + "/about/board/" not in (edge.noted_keys() or [])
    later = anonymous_get("/about/board/")
    assert "public" in later["Cache-Control"]
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


def test_the_contact_form_is_never_shared(mailoutbox):
    visitor = Client(enforce_csrf_checks=True)
    assert "public" in visitor.get("/news/")["Cache-Control"]
    form = visitor.get("/contact/")
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


class FakeEdge:
    """nginx's purge endpoint, at the network's edge: answers 200 for a key it holds
    (then drops it), 404 for one it does not, and remembers what it was asked."""

    def __init__(self, holding=()):
        self.holding, self.asked = set(holding), []
        edge_state = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_PURGE(self):
                key = self.headers.get("X-Edge-Cache-Key")
                edge_state.asked.append((self.path, key))
                held = key in edge_state.holding
                edge_state.holding.discard(key)
                self.send_response(200 if held else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/purge"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def edges(settings):
    reads.take_written(connection)  # writes before the test (its set-up) need no purge
    pair = [FakeEdge(), FakeEdge()]
    settings.EDGE_PURGE_URLS = [e.url for e in pair]
    settings.EDGE_PURGE_AGAIN_SECONDS = 0
    yield pair
    for fake in pair:
        fake.close()


def test_the_keys_of_shared_answers_are_noted_and_no_others(edges, client):
    shared = ["/download/", "/news/", "/api/releases/", "/download/feed/"]
    for path in shared:
        assert "public" in through_edge(path)["Cache-Control"], path
    not_shared = ["/contact/", "/no-such-page/", "/api/releases/?x=1", "/news/?utm_source=a"]
    for path in not_shared:
        assert "public" not in through_edge(path).get("Cache-Control", ""), path
    client.force_login(UserFactory())
    through_edge("/about/board/", client)
    noted = edge.noted_keys()
    assert set(noted) >= {EDGE_KEY + path for path in shared}
    assert not {EDGE_KEY + path for path in [*not_shared, "/about/board/"]} & set(noted)


def test_publishing_a_release_purges_every_edge_once_through_the_outbox(
    edges, django_capture_on_commit_callbacks
):
    with set_up_quietly():
        release = ReleaseFactory(version="11.4.91", is_published=False)
        ReleaseFileFactory(release=release)
    keys = [EDGE_KEY + path for path in ["/download/", "/api/releases/", "/download/feed/"]]
    for key in keys:
        through_edge(key.removeprefix(EDGE_KEY))
    for fake in edges:
        fake.holding.update(keys)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            release.is_published = True
            release.save()
            release.series.save()  # many saves in one transaction: one purge
        assert OutboxItem.objects.filter(kind=EDGE_PURGE).count() == 1
    item = OutboxItem.objects.get(kind=EDGE_PURGE)
    assert item.status == OutboxItem.Status.DONE, item.last_error
    for fake in edges:
        assert fake.holding == set()
        assert {key for _, key in fake.asked} >= set(keys)
        assert {path for path, _ in fake.asked} == {"/purge"}
    assert "11.4.91" in anonymous_get("/download/").content.decode()


def test_a_purge_an_edge_refuses_is_retried_by_the_outbox(
    edges, settings, django_capture_on_commit_callbacks
):
    through_edge("/news/")
    settings.EDGE_PURGE_URLS = [edges[0].url, "http://127.0.0.1:9/purge"]  # nothing listens
    with django_capture_on_commit_callbacks(execute=True):
        published_post("Purged later")
    item = OutboxItem.objects.get(kind=EDGE_PURGE)
    assert item.status == OutboxItem.Status.PENDING and "127.0.0.1:9" in item.last_error
    assert (("/purge", EDGE_KEY + "/news/")) in edges[0].asked  # the reachable one was asked


def test_without_edges_a_save_records_no_purge():
    published_post("No edge in development")
    assert not OutboxItem.objects.filter(kind=EDGE_PURGE).exists()


def test_a_comment_hidden_by_staff_purges_the_edge(edges, admin_client):
    from foundation.models import NewsComment

    with set_up_quietly():
        post = published_post("Open thread")
        comment = NewsComment.objects.create(
            post=post, author=UserFactory(), body="Buy cheap pills at spam.example"
        )
    with own_transaction():
        hidden = admin_client.post(
            "/admin/foundation/newscomment/",
            {"action": "hide", "_selected_action": [comment.pk]},
        )
    assert hidden.status_code == 302
    assert OutboxItem.objects.filter(kind=EDGE_PURGE).exists()
    assert "spam.example" not in anonymous_get(post.get_absolute_url()).content.decode()


def test_made_up_parameters_are_redirected_away_with_a_redirect_no_edge_keeps():
    """Issue 34: made-up query strings must cost the edge no key."""
    NewsPostFactory(title="Annual report", status=NewsPost.Status.PUBLISHED)
    answers = {
        (r.status_code, r.get("Location"), r.get("Cache-Control"))
        for r in (anonymous_get(f"/news/?x={n}") for n in range(FLOOD))
    }
    assert answers == {(302, "/news/", "private, max-age=3600")}
    # Signed-in visitors' pages are never shared: they keep what they asked for.
    member = Client()
    member.force_login(UserFactory())
    assert member.get("/news/?x=1").status_code == 200


def test_a_declared_parameter_is_kept():
    NewsPostFactory.create_batch(12, status=NewsPost.Status.PUBLISHED)
    response = anonymous_get("/news/?utm_source=mail&page=2")
    assert (response.status_code, response["Location"]) == (302, "/news/?page=2")
    assert "public" in anonymous_get("/news/?page=2")["Cache-Control"]


@pytest.mark.parametrize("path", ["/no-such-page/?x=1", "/news/?page=999", "/api/releases/?x=1"])
def test_errors_and_unread_parameters_are_never_shared(path):
    response = anonymous_get(path)
    assert "public" not in response.get("Cache-Control", ""), response.status_code
    assert "s-maxage" not in response.get("Cache-Control", "")


def test_a_second_pass_drops_what_was_noted_just_before_the_first(edges, settings):
    """An answer built from the rows as they were before the commit may reach an edge just
    after the purge: the keys noted shortly before it are purged again."""
    settings.EDGE_PURGE_AGAIN_SECONDS = 0.5
    through_edge("/about/board/")
    edge.purge_noted()  # tasks run at once in tests: the second pass follows directly
    for fake in edges:
        asked = [key for _, key in fake.asked]
        assert asked.count(EDGE_KEY + "/about/board/") == 2


# Issue 58: a storm of 30 admin edits purged 209,116 keys (every noted key, twice per edit)
# and the edge's hit rate fell to 7 %. A purge now drops only the pages that show what
# changed: each key is noted with what its answer read (core.reads: rows by the values it
# looked them up by, or whole tables), each purge names what its transaction changed.


def noted_read(path):
    [read] = [read for key, read in edge.noted() if key == EDGE_KEY + path]
    return read


def test_each_shared_key_is_noted_with_what_its_answer_read(edges):
    from foundation.models import Person

    with set_up_quietly():
        author = Person.objects.create(name="Ada Writer", slug="ada-writer")
        post = published_post("Read by its slug", author=author)
    for path in ["/news/", post.get_absolute_url(), "/api/releases/"]:
        through_edge(path)
    assert "foundation_newspost" in noted_read("/news/")  # a list: the whole table
    assert "releases_release" not in noted_read("/news/")
    on_its_page = noted_read(post.get_absolute_url())
    assert reads.entry("foundation_newspost", "slug", post.slug, status="published") in on_its_page
    assert "foundation_newspost" not in on_its_page  # no other post on it
    # Joined to the post: its author, by the row loaded.
    assert reads.entry("foundation_person", "id", author.pk) in on_its_page
    assert "foundation_person" not in on_its_page
    assert "releases_series" in noted_read("/api/releases/")


def test_reading_a_query_by_its_conditions():
    rows = reads.query_entries(
        'SELECT "a"."id" FROM "a" INNER JOIN "b" ON ("a"."b_id" = "b"."id") '
        'WHERE ("a"."slug" = %s AND "a"."shown") ORDER BY "a"."id" LIMIT 21',
        ["release-day"],
    )
    assert rows == {"a.slug=release-day", "b?"}  # b: the rows of it joined, once loaded
    both = 'SELECT * FROM "a" WHERE ("a"."status" = %s AND "a"."slug" = %s) LIMIT 21'
    assert reads.query_entries(both, ["published", "x"]) == {"a.slug=x&status=published"}
    ids = 'SELECT * FROM "a" WHERE "a"."id" IN (%s, %s)'
    assert reads.query_entries(ids, [3, 4]) == {"a.id=3", "a.id=4"}
    either = 'SELECT * FROM "a" WHERE ("a"."id" = %s OR "a"."slug" = %s)'
    assert reads.query_entries(either, [3, "x"]) == {"a"}
    assert reads.query_entries('SELECT * FROM "a" WHERE "a"."id" > %s', [3]) == {"a"}
    nested = 'SELECT * FROM "a" WHERE "a"."id" IN (SELECT "b"."a_id" FROM "b")'
    assert reads.query_entries(nested, []) == {"a", "b"}
    # The releases of one series: a list, whatever the join (a new one joins it).
    listed = 'SELECT * FROM "r" INNER JOIN "s" ON ("r"."s_id" = "s"."id") WHERE "s"."v" = %s'
    assert reads.query_entries(listed, ["11.4"]) == {"r", "s.v=11.4"}
    many = 'SELECT * FROM "a" WHERE "a"."id" IN (' + ", ".join(["%s"] * 31) + ")"  # noqa: S608
    assert reads.query_entries(many, list(range(31))) == {"a"}


def test_a_change_purges_the_pages_that_show_it_and_keeps_the_others(
    edges, django_capture_on_commit_callbacks
):
    with set_up_quietly():
        post = published_post("Before the edit")
        other = published_post("Another post")
    pages = ["/news/", "/", post.get_absolute_url(), other.get_absolute_url(), "/download/",
             "/about/board/", "/api/releases/"]  # fmt: skip
    for path in pages:
        through_edge(path)
    for fake in edges:
        fake.holding.update(EDGE_KEY + path for path in pages)
    with django_capture_on_commit_callbacks(execute=True):
        post.title = "After the edit"
        post.save()
    [item] = OutboxItem.objects.filter(kind=EDGE_PURGE)
    assert item.status == OutboxItem.Status.DONE, item.last_error
    assert reads.entry("foundation_newspost", "id", post.pk) in item.payload["changes"]
    kept = {other.get_absolute_url(), "/download/", "/about/board/", "/api/releases/"}
    for fake in edges:
        purged = {key.removeprefix(EDGE_KEY) for _, key in fake.asked}
        assert purged >= {"/news/", "/", post.get_absolute_url()}  # they show the post
        assert not purged & kept
        assert fake.holding == {EDGE_KEY + path for path in kept}
    assert "After the edit" in anonymous_get(post.get_absolute_url()).content.decode()


def test_a_row_that_moves_away_purges_the_pages_it_left(edges, django_capture_on_commit_callbacks):
    """The values a row had before its save count too: a post unpublished leaves the
    pages that showed it, whatever it was looked up by."""
    with set_up_quietly():
        post = published_post("Soon a draft")
    through_edge(post.get_absolute_url())
    old_slug = post.slug
    with django_capture_on_commit_callbacks(execute=True):
        post.slug = "renamed-" + old_slug
        post.save()
    [item] = OutboxItem.objects.filter(kind=EDGE_PURGE)
    assert reads.entry("foundation_newspost", "slug", old_slug) in item.payload["changes"]
    for fake in edges:
        assert (("/purge", EDGE_KEY + f"/news/{old_slug}/")) in fake.asked or any(
            key.endswith(old_slug + "/") for _, key in fake.asked
        )


def test_rows_written_in_bulk_beside_a_watched_save_purge_their_whole_table(
    edges, django_capture_on_commit_callbacks
):
    from releases.models import Release

    with set_up_quietly():
        release = ReleaseFactory(version="11.4.92", is_published=False)
        ReleaseFileFactory(release=release)
    through_edge("/download/")
    through_edge("/about/board/")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        Release.objects.filter(pk=release.pk).update(is_published=True)  # no signal
        published_post("Released today")  # the watched save of the transaction
    [item] = OutboxItem.objects.filter(kind=EDGE_PURGE)
    assert "releases_release" in item.payload["changes"]  # whole: no save says which rows
    for fake in edges:
        purged = {key.removeprefix(EDGE_KEY) for _, key in fake.asked}
        assert "/download/" in purged and "/about/board/" not in purged


def test_a_purge_not_narrowed_after_its_commit_drops_every_key(edges):
    """Recorded in the transaction as "every page", narrowed right after the commit: a
    process that died in between leaves a purge of everything, never too little."""
    for path in ["/news/", "/download/"]:
        through_edge(path)
    edge.purge_noted(None)
    for fake in edges:
        assert {key for _, key in fake.asked} >= {EDGE_KEY + "/news/", EDGE_KEY + "/download/"}


def test_an_answer_built_from_the_cache_is_purged_by_any_change(edges):
    from django.core.cache import cache

    token = reads.start()
    cache.get("anything")
    assert reads.stop(token) == {reads.EVERYTHING}
    through_edge("/download/")
    changed = [reads.entry("foundation_newspost", "id", 1)]
    assert edge.keys_showing(changed) == []
    edge.remember_recent(edge.KEYS_INDEX, EDGE_KEY + "/supporters/\n*", 100)
    assert edge.keys_showing(changed) == [EDGE_KEY + "/supporters/"]
