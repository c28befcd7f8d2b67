"""Comment and contact limits count only what is published or sent, and a refused post
comes back as typed, with when it may be sent again (docs/foundation.md)."""

import pytest
from django.core import mail
from pytest_django.asserts import assertContains

from foundation.models import ContactMessage, DocumentComment, NewsComment
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory, UserFactory

pytestmark = pytest.mark.django_db

COMMENT_URL = "/about/governance/bylaws/v1/comment/"
LONG_TEXT = "I have read the whole draft carefully. " * 60  # about 2,300 characters
HELP_TEXT = (
    "Markdown is supported. Be kind; staff may hide comments that break the code of conduct."
)


def limit_notice(response):
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 60
    when = "1 second" if wait == 1 else f"{wait} seconds"
    return (
        '<div class="notice notice-danger" role="alert" id="send-limit">You have sent this '
        "form too often in a short time, so it was not sent. Your text is kept below: "
        f"you may send it again in {when}.</div>"
    )


def comment_textarea(text):
    return (
        '<textarea name="body" cols="40" rows="6" maxlength="5000" required id="id_body" '
        f'aria-describedby="id_body_helptext">{text}</textarea>'
    )


@pytest.fixture
def reader(client):
    DocumentVersionFactory(number=1)
    client.force_login(UserFactory())
    return client


def test_comments_sent_back_with_errors_do_not_use_up_the_limit(reader):
    for refused in [{"body": ""}, {"body": "x" * 5001}, {"body": "hi", "website_url": "spam"}]:
        assert reader.post(COMMENT_URL, refused).status_code == 400
    statuses = [reader.post(COMMENT_URL, {"body": f"Comment {i}"}).status_code for i in range(5)]
    assert statuses == [302] * 5
    assert DocumentComment.objects.count() == 5


def test_a_blocked_comment_keeps_its_text_says_when_and_stores_nothing(reader):
    for i in range(5):
        reader.post(COMMENT_URL, {"body": f"Comment {i}"})
    response = reader.post(COMMENT_URL, {"body": LONG_TEXT})
    assert response.status_code == 429
    assertContains(response, limit_notice(response), html=True, status_code=429)
    assertContains(response, comment_textarea(LONG_TEXT.strip()), html=True, status_code=429)
    assert DocumentComment.objects.count() == 5


def test_news_comments_share_the_limit_and_a_blocked_one_keeps_its_text(reader):
    NewsPostFactory(slug="visible")
    for i in range(5):
        reader.post(COMMENT_URL, {"body": f"Comment {i}"})
    response = reader.post("/news/visible/comment/", {"body": LONG_TEXT})
    assert response.status_code == 429
    assertContains(response, limit_notice(response), html=True, status_code=429)
    assertContains(response, comment_textarea(LONG_TEXT.strip()), html=True, status_code=429)
    assert NewsComment.objects.count() == 0


CONTACT = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}


def test_contact_counts_only_messages_that_were_sent(client, settings):
    settings.STAFF_NOTIFICATION_EMAILS = ["staff@example.org"]
    assert client.post("/contact/", {**CONTACT, "email": "not-an-email"}).status_code == 400
    statuses = [client.post("/contact/", CONTACT).status_code for _ in range(5)]
    assert statuses == [302] * 5
    assert ContactMessage.objects.count() == 5


def test_a_blocked_contact_message_keeps_its_text_says_when_and_sends_nothing(client, settings):
    settings.STAFF_NOTIFICATION_EMAILS = ["staff@example.org"]
    for _ in range(5):
        client.post("/contact/", CONTACT)
    sent = len(mail.outbox)
    response = client.post("/contact/", {**CONTACT, "message": LONG_TEXT})
    assert response.status_code == 429
    assertContains(response, limit_notice(response), html=True, status_code=429)
    assertContains(
        response,
        '<textarea name="message" cols="40" rows="8" maxlength="5000" required '
        f'id="id_message">{LONG_TEXT.strip()}</textarea>',
        html=True,
        status_code=429,
    )
    assert ContactMessage.objects.count() == 5
    assert len(mail.outbox) == sent


def test_the_comment_box_is_described_by_its_help_text(reader):
    response = reader.get("/about/governance/bylaws/v1/")
    assertContains(response, comment_textarea(""), html=True)
    assertContains(
        response, f'<span class="helptext" id="id_body_helptext">{HELP_TEXT}</span>', html=True
    )


@pytest.mark.parametrize(
    "body",
    [
        '<div class="x"></div><script>alert(1)</script>',
        "<p></p>\n\n---\n\n&nbsp;",
        "[](https://example.org) \u200b",
    ],
)
def test_a_comment_with_nothing_left_after_sanitising_is_refused(reader, body):
    NewsPostFactory(slug="visible")
    error = (
        '<ul class="errorlist" id="id_body_error"><li>Your comment has no text once HTML and '
        "formatting are removed (comments cannot contain HTML). Please write what you want "
        "to say.</li></ul>"
    )
    for url in [COMMENT_URL, "/news/visible/comment/"]:
        response = reader.post(url, {"body": body})
        assertContains(response, error, html=True, status_code=400)
    assert DocumentComment.objects.count() == NewsComment.objects.count() == 0
    assert reader.post(COMMENT_URL, {"body": f"{body} Words"}).status_code == 302
    assert DocumentComment.objects.get().body == f"{body} Words"
