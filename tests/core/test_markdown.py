"""Comments cannot load anything from elsewhere or dress up as the site; staff keep images."""

import pytest

from core.markdown import has_visible_text, render_comment, render_markdown
from foundation.models import DocumentComment
from tests.foundation.factories import DocumentVersionFactory, UserFactory

REMOTE_RESOURCES = [
    "![tracker](https://tracker.example/pixel.png)",
    '<img src="https://tracker.example/pixel.png">',
    '<img src="//tracker.example/pixel.png">',
    '<img src="/\\tracker.example/pixel.png">',
    '<video src="https://tracker.example/v.mp4"></video>',
    '<audio src="https://tracker.example/a.mp3"></audio>',
    '<link rel="stylesheet" href="https://tracker.example/x.css">',
    '<iframe src="https://tracker.example/"></iframe>',
    '<object data="https://tracker.example/x.swf"></object>',
    '<embed src="https://tracker.example/x.swf">',
    '<picture><source srcset="https://tracker.example/p.png"></picture>',
    '<p style="background:url(https://tracker.example/bg.png)">styled</p>',
    '<form action="https://tracker.example/"><input name=x></form>',
]


@pytest.mark.parametrize("markdown", REMOTE_RESOURCES)
def test_a_comment_cannot_load_anything_from_another_server(markdown):
    html = render_comment(markdown)
    assert "tracker.example" not in html
    for tag in ("<img", "<video", "<audio", "<link", "<iframe", "<object", "<embed", "<source"):
        assert tag not in html
    assert "style=" not in html


def test_a_comment_cannot_use_the_site_classes_to_fake_a_notice():
    html = render_comment(
        '<div class="notice notice-success">Your account is suspended.</div>\n\n'
        '<span class="badge">Staff</span> <p class="notice" id="messages">x</p>\n\n'
        "## Official announcement"
    )
    assert "class=" not in html and "id=" not in html
    assert "<div" not in html and "<span" not in html and "<h2" not in html
    assert "Your account is suspended." in html  # the words stay, as plain text


def test_comment_links_are_marked_as_user_content():
    html = render_comment("[docs](https://mariadb.com/kb/) and <a href='/news/' rel='me'>news</a>")
    assert html.count('rel="nofollow ugc noopener"') == 2
    assert 'rel="me"' not in html


def test_comment_formatting_readers_need_still_works():
    html = render_comment("**bold**, `code`, a list:\n\n- one\n- two\n\n> quoted")
    assert "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert "<li>one</li>" in html and "<blockquote>" in html


@pytest.mark.parametrize(
    "src",
    ["https://tracker.example/pixel.png", "//tracker.example/p.png", "/\\tracker.example/p.png",
     "http://127.0.0.1:9/p.png"],
)  # fmt: skip
def test_staff_content_drops_remote_images(src, settings):
    settings.SITE_URL = "https://mariadb.org"
    html = render_markdown(f"![chart]({src})")
    assert "src=" not in html


@pytest.mark.parametrize(
    "src", ["/media/news/chart.png", "/static/img/logo.svg", "https://mariadb.org/media/x.png"]
)
def test_staff_content_keeps_images_from_the_site_itself(src, settings):
    settings.SITE_URL = "https://mariadb.org"
    html = render_markdown(f"![chart]({src})")
    assert f'src="{src}"' in html


@pytest.mark.django_db
def test_governance_comments_use_the_strict_profile(client):
    version = DocumentVersionFactory(number=1, body="![chart](/media/governance/chart.png)")
    DocumentComment.objects.create(
        version=version,
        author=UserFactory(),
        body='![x](https://tracker.example/p.png) <div class="notice">Vote closed.</div>',
    )
    html = client.get("/about/governance/bylaws/v1/").content.decode()
    assert "tracker.example" not in html
    assert '<div class="notice">' not in html and "Vote closed." in html
    assert 'src="/media/governance/chart.png"' in html  # the staff-written body keeps its image


TABLE_MARKDOWN = "| Threads | MariaDB | LeanXcale |\n| --- | --- | --- |\n| 1 | 10 | 20 |\n"


@pytest.mark.parametrize("render", [render_markdown, render_comment])
def test_tables_scroll_in_a_region_keyboard_users_can_reach(render):
    html = render(TABLE_MARKDOWN + "\nAfter.\n\n" + TABLE_MARKDOWN)
    region = '<div class="table-wrap" role="region" tabindex="0" aria-label="Table"><table>'
    assert html.count(region) == 2
    assert html.count("</table></div>") == 2
    assert "<p>After.</p>" in html.split("</table></div>")[1]  # the text stays outside


def test_a_comment_cannot_forge_a_focusable_region():
    html = render_comment('<div role="region" tabindex="0">x</div>')
    assert "tabindex" not in html and "role=" not in html


@pytest.mark.parametrize(
    ("html", "visible"),
    [
        ("<p>Hello</p>", True),
        ("<p><code>0</code></p>", True),
        ("\n", False),
        ("<p></p><hr>", False),
        ("<p>&nbsp; \u200b\u2060</p>", False),
        ('<p><a href="https://example.org" rel="nofollow ugc noopener"></a></p>', False),
    ],
)
def test_has_visible_text(html, visible):
    assert has_visible_text(html) is visible
