from datetime import timedelta

import feedparser
import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from foundation import demo as foundation_demo
from releases import demo as releases_demo
from tests.foundation.factories import CategoryFactory, NewsPostFactory, TagFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def posts():
    category, tag = CategoryFactory(name="Quarterly updates"), TagFactory(name="board")
    visible = NewsPostFactory(title="Visible post", slug="visible")
    draft = NewsPostFactory(title="Secret draft", slug="draft", status="draft")
    scheduled = NewsPostFactory(
        title="Scheduled post", slug="scheduled", published_at=timezone.now() + timedelta(days=2)
    )
    for post in (visible, draft, scheduled):
        post.categories.add(category)
        post.tags.add(tag)
    return visible, draft, scheduled


def test_drafts_and_scheduled_posts_are_invisible_everywhere(client, posts):
    for url in [
        "/news/",
        "/news/category/quarterly-updates/",
        "/news/tag/board/",
        "/news/feed/",
        "/sitemap.xml",
        "/",
    ]:
        html = client.get(url).content.decode()
        assert "Visible post" in html or "/news/visible/" in html, url
        assert "Secret draft" not in html and "/news/draft/" not in html, url
        assert "Scheduled post" not in html and "/news/scheduled/" not in html, url
    assert client.get("/news/draft/").status_code == 404
    assert client.get("/news/scheduled/").status_code == 404
    assert client.get("/news/visible/").status_code == 200


def test_a_scheduled_post_appears_when_its_time_comes(client, posts):
    _, _, scheduled = posts
    scheduled.published_at = timezone.now() - timedelta(minutes=1)
    scheduled.save()
    assert client.get("/news/scheduled/").status_code == 200


def test_news_pages_have_bounded_query_counts(client, django_assert_max_num_queries):
    category, tag = CategoryFactory(), TagFactory()
    for _ in range(15):
        post = NewsPostFactory()
        post.categories.add(category)
        post.tags.add(tag)
    for url in [
        "/news/",
        "/news/?page=2",
        "/news/category/performance/",
        "/news/tag/sysbench/",
        "/news/feed/",
        f"/news/{post.slug}/",
        "/sitemap.xml",
        "/about/",
        "/about/board/",
        "/about/staff/",
        "/about/governance/",
        "/about/meetings/",
        "/contact/",
    ]:
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200, url


def test_feed_is_valid_atom(client, posts):
    feed = feedparser.parse(client.get("/news/feed/").content)
    assert not feed.bozo
    assert feed.version == "atom10"
    assert [entry.title for entry in feed.entries] == ["Visible post"]


def test_the_demo_news_feed_dates_each_post_by_its_publication(client):
    foundation_demo.load(lambda message: None)
    releases_demo.load(lambda message: None)
    feed = feedparser.parse(client.get("/news/feed/").content)
    assert len(feed.entries) >= 10
    for entry in feed.entries:
        assert entry.updated_parsed == entry.published_parsed, entry.title
    newest = max(entry.published_parsed for entry in feed.entries)
    assert feed.feed.updated_parsed == newest


def test_opengraph_tags_on_a_post(client, posts):
    response = client.get("/news/visible/")
    assertContains(response, '<meta property="og:title" content="Visible post">', html=True)
    assertContains(response, '<meta property="og:type" content="article">', html=True)


def test_signed_in_readers_comment_and_staff_can_hide(client, admin_client, posts):
    visible = posts[0]
    assert client.post("/news/visible/comment/", {"body": "hello"}).status_code == 302  # to login
    assert visible.comments.count() == 0
    client.force_login(UserFactory())
    client.post("/news/visible/comment/", {"body": "A **useful** remark"})
    assert "<strong>useful</strong>" in client.get("/news/visible/").content.decode()
    comment = visible.comments.get()
    admin_client.post(
        "/admin/foundation/newscomment/", {"action": "hide", "_selected_action": [comment.pk]}
    )
    assert "useful" not in client.get("/news/visible/").content.decode()


def test_honeypot_and_rate_limit_stop_comment_spam(client, posts):
    visible = posts[0]
    client.force_login(UserFactory())
    client.post("/news/visible/comment/", {"body": "spam", "website_url": "http://spam.example"})
    assert visible.comments.count() == 0
    client.force_login(UserFactory())  # the limit is per user
    statuses = [
        client.post("/news/visible/comment/", {"body": f"comment {i}"}).status_code
        for i in range(7)
    ]
    assert statuses[:5] == [302] * 5
    assert statuses[5:] == [429, 429]
    assert visible.comments.count() == 5
