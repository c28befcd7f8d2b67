"""A news post's body is rendered and sanitised once, when it is saved (body_html), and
pages and the feed show the stored HTML, with embeds expanded when shown."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import shortcodes
from core.markdown import render_markdown
from foundation.models import NewsPost
from releases.services.announcing import announce_from_catalogue
from tests.foundation.factories import NewsPostFactory
from tests.releases.factories import ReleaseFactory

pytestmark = pytest.mark.django_db
HOSTILE = "Hi **there** <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=y>"


def test_saving_a_post_stores_its_body_sanitised():
    post = NewsPostFactory(body=HOSTILE)
    post.refresh_from_db()
    assert "<strong>there</strong>" in post.body_html
    assert "<script" not in post.body_html
    assert "javascript:" not in post.body_html
    assert "onerror" not in post.body_html


def test_editing_the_body_alone_stores_it_again():
    post = NewsPostFactory(body="first")
    post.body = "*second*"
    post.save(update_fields=["body"])
    post.refresh_from_db()
    assert post.body_html == "<p><em>second</em></p>"


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=200))
def test_the_stored_body_is_what_rendering_would_give(body):
    post = NewsPost(title="t", slug="stored-body", body=body)
    post.render_body()
    assert post.body_html == render_markdown(body)


def test_announcements_written_in_bulk_have_their_body_stored():
    release = ReleaseFactory(is_published=True)
    assert announce_from_catalogue([release]) == 1
    post = NewsPost.objects.get(pk=release.announcement_id)
    assert post.body_html and post.body_html == render_markdown(post.body)


def test_the_page_and_the_feed_show_the_stored_body_with_embeds_expanded(client):
    shortcodes.register("stored-embed")(lambda *args: f'<div class="embed">{"|".join(args)}</div>')
    post = NewsPostFactory(body="Intro\n\n[[stored-embed a b]]")
    NewsPost.objects.filter(pk=post.pk).update(
        body_html="<p>Stored copy</p><p>[[stored-embed a b]]</p>"
    )
    page = client.get(post.get_absolute_url())
    assert "Stored copy" in page.content.decode()
    assert '<div class="embed">a|b</div>' in page.content.decode()
    feed = client.get("/news/feed/").content.decode()
    assert "Stored copy" in feed
