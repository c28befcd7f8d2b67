from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains

from foundation.models import ContactMessage, DocumentVersion
from tests.foundation.factories import DocumentVersionFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_demo_board_staff_and_affiliations_from_the_seed(client):
    from foundation import demo

    demo.load(log=lambda m: None)
    board = client.get("/about/board/").content.decode()
    for name in [
        "Sergei Golubchik",
        "Rasmus Johansson",
        "Andrew Katz",
        "Monty Widenius",
        "Jeremy Zawodny",
    ]:
        assert name in board
    assert "Mike Milinkovich" in board  # advisor
    staff = client.get("/about/staff/").content.decode()
    assert "General Counsel" in staff and "Virtual CFO" in staff
    governance = client.get("/about/governance/").content.decode()
    assert "Open Source Initiative" in governance and "Open Invention Network" in governance
    assert "open for comments" in governance


def test_readable_diff_between_versions(client):
    """Issue 49: the diff compared raw Markdown line by line ("##" visible), without
    marking the words that changed."""
    DocumentVersionFactory(
        number=1,
        status="adopted",
        body="# Bylaws\n\n## 2. The board\n\nThe board has *six* seats.\n\nKeep this.\n\n"
        "- Members elect it.\n",
    )
    DocumentVersionFactory(
        number=2,
        body="# Bylaws\n\n## 2. The board\n\nThe board has *eight* seats.\n\nKeep this.\n\n"
        "- Members elect it.\n- Sponsors may observe.\n",
    )
    response = client.get("/about/governance/bylaws/v2/diff/")
    assertContains(
        response,
        '<div class="diff-line diff-changed"><span class="diff-mark" aria-hidden="true">~</span>'
        '<span class="visually-hidden">Changed: </span>The board has '
        '<del class="diff-word"><span class="visually-hidden">removed </span>six </del>'
        '<ins class="diff-word"><span class="visually-hidden">added </span>eight </ins>seats.</div>',
        html=True,
    )
    assertContains(
        response,
        '<ins><span class="visually-hidden">Added: </span>Sponsors may observe.</ins>',
        html=True,
    )
    hunks = response.content.decode().split('<div class="diff-hunk">', 1)[1]
    assert "##" not in hunks and "*six*" not in hunks and "- Sponsors" not in hunks
    assert "2. The board" in hunks  # the heading, as it reads


def test_a_comment_points_at_the_section_it_discusses(client):
    """Issue 49: a comment could only be about the whole document."""
    version = DocumentVersionFactory(
        number=1,
        body="# Bylaws\n\n## 2. The board\n\nSix seats.\n\n## 3. Members\n\nAll welcome.\n",
    )
    client.force_login(UserFactory())
    page = client.get("/about/governance/bylaws/v1/")
    assertContains(page, '<option value="section-2-the-board">2. The board</option>', html=True)
    assertContains(page, '<option value="" selected>The whole document</option>', html=True)
    client.post(
        "/about/governance/bylaws/v1/comment/",
        {"body": "Why six?", "section": "section-2-the-board"},
    )
    client.post("/about/governance/bylaws/v1/comment/", {"body": "Looks good."})
    comments = list(version.comments.order_by("id").values_list("body", "section"))
    assert comments == [("Why six?", "section-2-the-board"), ("Looks good.", "")]
    page = client.get("/about/governance/bylaws/v1/")
    assertContains(page, '<a href="#section-2-the-board">2. The board</a>', html=True)
    assertContains(page, '<h2 id="section-2-the-board">2. The board</h2>', html=True)
    refused = client.post(
        "/about/governance/bylaws/v1/comment/", {"body": "Hm.", "section": "9-nope"}
    )
    assert refused.status_code == 400 and version.comments.count() == 2


def test_comments_only_during_the_discussion_period(client):
    open_version = DocumentVersionFactory(number=1)
    closed = DocumentVersionFactory(number=2, comments_close=timezone.now() - timedelta(minutes=1))
    draft = DocumentVersionFactory(number=3, status=DocumentVersion.Status.DRAFT)
    client.force_login(UserFactory())
    client.post("/about/governance/bylaws/v1/comment/", {"body": "Support this."})
    client.post("/about/governance/bylaws/v2/comment/", {"body": "Too late."})
    assert open_version.comments.count() == 1
    assert closed.comments.count() == 0
    assert client.get("/about/governance/bylaws/v3/").status_code == 404  # drafts are not public
    assert draft.comments.count() == 0


def test_contact_is_stored_and_mailed_to_staff_after_commit(
    client, settings, django_capture_on_commit_callbacks
):
    settings.STAFF_NOTIFICATION_EMAILS = ["board@example.org"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/contact/",
            {
                "topic": "sponsorship",
                "name": "Ada",
                "email": "ada@example.org",
                "organisation": "Example Ltd",
                "message": "We would like to sponsor.",
            },
        )
    assert response.status_code == 302
    assert ContactMessage.objects.get().organisation == "Example Ltd"
    (to_staff,) = [m for m in mail.outbox if m.to == ["board@example.org"]]
    assert "We would like to sponsor." in to_staff.body
    assert to_staff.reply_to == ["Ada <ada@example.org>"]  # staff answer with Reply


def test_a_press_enquiry_is_acknowledged_to_its_sender_without_its_text(
    client, settings, django_capture_on_commit_callbacks
):
    """Issue 49: the form had no press topic and sent the sender nothing."""
    settings.STAFF_NOTIFICATION_EMAILS = ["board@example.org"]
    form = client.get("/contact/?topic=press")
    assertContains(form, '<option value="press" selected>Press and media</option>', html=True)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/contact/",
            {"topic": "press", "name": "Grace", "email": "grace@example.org",
             "message": "An interview about 12.3? <a href='https://spam.example'>x</a>"},
            follow=True,
        )  # fmt: skip
    assertContains(response, "A confirmation is on its way to grace@example.org.")
    to_staff, acknowledgement = sorted(mail.outbox, key=lambda m: m.to != ["board@example.org"])
    assert to_staff.subject == "[Press and media] Grace"
    assert acknowledgement.to == ["grace@example.org"]
    assert acknowledgement.subject == "Your message to the MariaDB Foundation (press and media)"
    assert "reached the staff on" in acknowledgement.body
    # Nothing typed into the form is mailed to the address typed into it.
    assert "interview" not in acknowledgement.body and "spam.example" not in acknowledgement.body
    assert "Grace" not in acknowledgement.body


def test_contact_rejects_bad_input_and_bots_and_floods(client):
    response = client.post(
        "/contact/", {"topic": "general", "name": "", "email": "not-an-email", "message": ""}
    )
    assert response.status_code == 400
    client.post(
        "/contact/",
        {
            "topic": "general",
            "name": "Bot",
            "email": "bot@example.org",
            "message": "hi",
            "website_url": "http://spam.example",
        },
    )
    assert ContactMessage.objects.count() == 0
    data = {"topic": "general", "name": "Ada", "email": "ada@example.org", "message": "Hello"}
    statuses = [client.post("/contact/", data).status_code for _ in range(7)]
    assert statuses == [302] * 5 + [429, 429]  # the refused posts above did not count
    assert ContactMessage.objects.count() == 5
