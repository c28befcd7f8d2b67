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


# A reader's comment must not make the browser fetch from elsewhere (it would tell that
# server who reads the page) nor look like the site's own notices.
OUTSIDE = "http://198.51.100.7"  # TEST-NET-2: never a real host
COMMENT_CORPUS = [
    f"![pixel]({OUTSIDE}/pixel.png)",
    f'<img src="{OUTSIDE}/img.png">',
    '<img src="//198.51.100.7/protocol-relative.png">',
    f'<video src="{OUTSIDE}/v.mp4" autoplay></video>',
    f'<link rel="stylesheet" href="{OUTSIDE}/x.css">',
    f'<p style="background-image:url({OUTSIDE}/bg.png)">styled</p>',
    '<div class="notice">Your membership has been cancelled.</div>',
    '<span class="button">Pay now</span>',
    "[a link](https://mariadb.com/kb/)",
]


def test_comments_load_nothing_from_elsewhere_and_cannot_fake_notices(live_server, page):
    from foundation.models import NewsComment

    post = NewsPostFactory(slug="comments", body="A post with readers' comments.")
    for payload in COMMENT_CORPUS:
        NewsComment.objects.create(post=post, author=UserFactory(), body=payload)
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(live_server.url + "/news/comments/")
    page.wait_for_load_state("networkidle")
    assert [url for url in requested if not url.startswith(live_server.url)] == []
    comments = page.locator("article.comment")
    assert comments.count() == len(COMMENT_CORPUS)
    written = "article.comment :is(img, video, link, [style], [class]):not(p.card-meta)"
    assert page.locator(written).count() == 0
    assert "Your membership has been cancelled." in comments.all_inner_texts()[-3]
    link = comments.locator("a[href='https://mariadb.com/kb/']")
    assert link.get_attribute("rel") == "nofollow ugc noopener"
