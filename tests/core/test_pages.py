from datetime import date, timedelta

import pytest
from django.db import DatabaseError
from django.urls import reverse
from django.utils import timezone

from core import shortcodes
from core.markdown import render_markdown
from foundation.models import NewsPost
from releases.models import Release, Series

pytestmark = pytest.mark.django_db


def test_home_page_shows_honest_empty_states(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "No news has been published yet." in html
    assert "No releases have been published yet." in html
    assert 'href="#main"' in html  # skip link
    for label in ["Foundation", "Supporters", "Download", "Usage statistics", "Benchmarks"]:
        assert f">{label}</a>" in html


def test_home_page_lists_published_news_and_releases(client):
    NewsPost.objects.create(
        title="Quarterly update", slug="q", body="x", status=NewsPost.Status.PUBLISHED
    )
    NewsPost.objects.create(
        title="Future post",
        slug="f",
        body="x",
        status=NewsPost.Status.PUBLISHED,
        published_at=timezone.now() + timedelta(days=1),
    )
    series = Series.objects.create(version="10.11")
    Release.objects.create(series=series, version="10.11.9", release_date=date(2024, 8, 8))
    html = client.get("/").content.decode()
    assert "Quarterly update" in html
    assert "Future post" not in html
    assert "10.11.9" in html


def test_home_page_query_count_is_bounded(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        assert client.get("/").status_code == 200


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Page not found" in response.content


def test_healthz_answers_200_when_the_database_answers(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json()["database"] == "up"


def test_healthz_answers_503_when_the_database_fails(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["database"] == "down"


def test_markdown_is_rendered_and_sanitised():
    html = render_markdown(
        "# Title\n\n<script>alert(1)</script> [x](javascript:alert(1)) "
        '<img src=x onerror="alert(1)"> **bold**'
    )
    assert "<strong>bold</strong>" in html
    assert "<script" not in html
    assert "javascript:" not in html
    assert "onerror" not in html


def test_shortcodes_expand_only_registered_handlers_after_sanitising():
    shortcodes.register("demo-embed")(lambda *args: f'<div class="embed">{"|".join(args)}</div>')
    html = render_markdown(
        "Intro\n\n[[demo-embed a b]]\n\n[[unknown x]] <script>x</script>", shortcodes=True
    )
    assert '<div class="embed">a|b</div>' in html
    assert "[[unknown x]]" in html
    assert "<script" not in html
    assert "[[demo-embed a b]]" in render_markdown("[[demo-embed a b]]")  # off unless asked
