"""Hostile Markdown in posts and comments renders inert in a real browser."""

import pytest

from foundation.models import NewsComment
from tests.foundation.factories import NewsPostFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

XSS_CORPUS = [
    "<script>window.__xss = 1</script>",
    '<img src=x onerror="window.__xss = 2">',
    "[click](javascript:window.__xss=3)",
    '<svg onload="window.__xss = 4"></svg>',
    '<a href="javascript:window.__xss=5">x</a>',
    '<iframe src="javascript:window.__xss=6"></iframe>',
    '<details open ontoggle="window.__xss = 7">',
    '![x](x "onerror=window.__xss=8")',
    '<div style="background:url(javascript:window.__xss=9)">styled</div>',
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=10>",
]


def test_xss_corpus_in_posts_and_comments_is_inert(live_server, page):
    post = NewsPostFactory(slug="hostile", body="\n\n".join(XSS_CORPUS))
    user = UserFactory()
    for payload in XSS_CORPUS:
        NewsComment.objects.create(post=post, author=user, body=payload)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(live_server.url + "/news/hostile/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__xss") is None
    assert dialogs == []
    assert page.locator("script:not([src])").count() == 0
    assert page.locator("[onerror], [onload], [ontoggle], iframe, svg").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
