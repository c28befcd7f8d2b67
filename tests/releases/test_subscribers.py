"""Release announcements by mail: double opt-in, one mail per release, unsubscribing from
the page or with a mail program's one-click button; links in mails act only when posted."""

import re
from datetime import date

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from pytest_django.asserts import assertContains

from releases.models import AnnouncementSubscriber, Release
from releases.services import publishing
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/download/subscribe/"
SENT_TEXT = "If that address is not subscribed yet, a mail with a confirmation link is on its way"


def link_in(message, prefix):
    """The path of the site link in a mail that starts with ``prefix``."""
    match = re.search(r"https?://[^/\s]+(" + re.escape(prefix) + r"\S+)", message.body)
    assert match, message.body
    return match.group(1)


def subscribe_and_confirm(client, email, capture_on_commit):
    mail.outbox.clear()
    with capture_on_commit(execute=True):
        client.post(SUBSCRIBE, {"email": email})
    (confirmation,) = mail.outbox
    response = client.post(link_in(confirmation, "/download/subscribe/confirm/"))
    assert response.status_code == 200
    mail.outbox.clear()


@pytest.fixture
def new_release():
    series = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    release = ReleaseFactory(
        series=series, version="12.3.4", release_date=date(2026, 11, 20), is_published=False
    )
    ReleaseFileFactory(release=release)
    return release


def publish(release, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        publishing.publish_release(release)


def test_subscribe_confirm_announce_and_unsubscribe(
    client, new_release, django_capture_on_commit_callbacks
):
    download = client.get("/download/")
    assertContains(download, f'<a class="button" href="{SUBSCRIBE}">Subscribe to release announcements</a>', html=True)  # fmt: skip

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(SUBSCRIBE, {"email": "DBA@Example.org"})
    assert response.status_code == 302
    assertContains(client.get(response["Location"]), SENT_TEXT)
    (confirmation,) = mail.outbox
    assert confirmation.to == ["dba@example.org"]
    assert confirmation.subject == "Confirm your MariaDB release announcements"
    subscriber = AnnouncementSubscriber.objects.get()
    assert subscriber.confirmed_at is None

    # Unconfirmed: an announcement does not reach it.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(SUBSCRIBE, {"email": "waiting@example.org"})
    mail.outbox.clear()

    # Following the link (as a mail scanner would) only asks; the button confirms.
    confirm_path = link_in(confirmation, "/download/subscribe/confirm/")
    asked = client.get(confirm_path)
    assertContains(asked, '<button class="button" type="submit">Confirm the subscription</button>', html=True)  # fmt: skip
    subscriber.refresh_from_db()
    assert subscriber.confirmed_at is None
    confirmed = client.post(confirm_path)
    assertContains(confirmed, "<h1>Subscription confirmed</h1>", html=True)
    subscriber.refresh_from_db()
    assert subscriber.confirmed_at is not None
    subscribe_and_confirm(client, "ops@example.org", django_capture_on_commit_callbacks)

    publish(new_release, django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mail.outbox) == ["dba@example.org", "ops@example.org"]
    announcement = next(m for m in mail.outbox if m.to == ["dba@example.org"])
    assert announcement.subject == "MariaDB 12.3.4 stable released"
    assert "/download/12.3/12.3.4/" in announcement.body
    assert "/news/mariadb-12-3-4-released/" in announcement.body
    assert (
        f"SHA-256 of mariadb-12.3.4.tar.gz: {new_release.files.get().sha256}" in announcement.body
    )
    new_release.refresh_from_db()
    assert new_release.mailed_at is not None

    # Each subscriber gets their own link; following it deletes only that subscriber.
    links = {m.to[0]: link_in(m, "/download/unsubscribe/") for m in mail.outbox}
    assert links["dba@example.org"] != links["ops@example.org"]
    assert announcement.extra_headers == {
        "List-Unsubscribe": f"<{settings.SITE_URL}{links['dba@example.org']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    asked = client.get(links["dba@example.org"])
    assertContains(asked, '<button class="button button-danger" type="submit">Unsubscribe</button>', html=True)  # fmt: skip
    assert AnnouncementSubscriber.objects.count() == 3
    response = client.post(links["dba@example.org"])
    assertContains(response, "<h1>Unsubscribed</h1>", html=True)
    assert set(AnnouncementSubscriber.objects.values_list("email", flat=True)) == {
        "ops@example.org",
        "waiting@example.org",
    }


def test_a_mail_programs_one_click_unsubscribe_needs_no_cookie(
    client, new_release, django_capture_on_commit_callbacks
):
    subscribe_and_confirm(client, "dba@example.org", django_capture_on_commit_callbacks)
    publish(new_release, django_capture_on_commit_callbacks)
    (announcement,) = mail.outbox
    url = announcement.extra_headers["List-Unsubscribe"].strip("<>")

    # RFC 8058: the provider posts this body to the header's address, with no CSRF cookie.
    provider = Client(enforce_csrf_checks=True)
    response = provider.post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert not AnnouncementSubscriber.objects.exists()


def test_publishing_again_mails_nothing(client, new_release, django_capture_on_commit_callbacks):
    subscribe_and_confirm(client, "dba@example.org", django_capture_on_commit_callbacks)
    publish(new_release, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    mail.outbox.clear()

    publish(Release.objects.get(pk=new_release.pk), django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_tampered_links_are_refused_and_change_nothing(
    client, new_release, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(SUBSCRIBE, {"email": "dba@example.org"})
    confirm_path = link_in(mail.outbox[0], "/download/subscribe/confirm/")
    subscriber = AnnouncementSubscriber.objects.get()
    other_id = confirm_path.replace(f"/confirm/{subscriber.pk}:", f"/confirm/{subscriber.pk + 1}:")

    for send in (client.get, client.post):
        response = send(other_id)
        assertContains(response, "not valid or has expired", status_code=400)
        response = send(confirm_path.rstrip("/") + "x/")
        assert response.status_code == 400
    subscriber.refresh_from_db()
    assert subscriber.confirmed_at is None

    client.post(confirm_path)
    publish(new_release, django_capture_on_commit_callbacks)
    unsubscribe_path = link_in(mail.outbox[-1], "/download/unsubscribe/")
    # A confirmation token is not an unsubscribe token, and a tampered one is refused.
    token = confirm_path.split("/")[-2]
    for path in (f"/download/unsubscribe/{token}/", unsubscribe_path.rstrip("/") + "x/"):
        assertContains(client.get(path), "unsubscribe link is not valid", status_code=400)
        assertContains(client.post(path), "unsubscribe link is not valid", status_code=400)
    assert AnnouncementSubscriber.objects.filter(pk=subscriber.pk).exists()


def test_the_form_answers_the_same_for_a_known_and_an_unknown_address(
    client, django_capture_on_commit_callbacks
):
    subscribe_and_confirm(client, "known@example.org", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post(SUBSCRIBE, {"email": "known@example.org"})
        unknown = client.post(SUBSCRIBE, {"email": "unknown@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    # The confirmed address gets no new confirmation; the new one does.
    assert [m.to for m in mail.outbox] == [["unknown@example.org"]]
    assert AnnouncementSubscriber.objects.count() == 2


@pytest.mark.parametrize("email", ["", "not-an-address", "a@b@example.org", "x" * 250 + "@e.org"])
def test_bad_input_shows_the_form_with_an_error_and_stores_nothing(client, email):
    response = client.post(SUBSCRIBE, {"email": email})
    assertContains(response, "Please correct the address below.", status_code=400)
    assertContains(response, 'name="email"', status_code=400)
    assert not AnnouncementSubscriber.objects.exists()
    assert mail.outbox == []


def test_the_form_is_csrf_protected():
    response = Client(enforce_csrf_checks=True).post(SUBSCRIBE, {"email": "dba@example.org"})
    assert response.status_code == 403
    assert not AnnouncementSubscriber.objects.exists()


def test_subscribing_is_rate_limited_per_client_address(client):
    statuses = [
        client.post(SUBSCRIBE, {"email": f"dba{i}@example.org"}).status_code for i in range(7)
    ]
    assert statuses == [302] * 5 + [429, 429]
    assert AnnouncementSubscriber.objects.count() == 5
    other = client.post(SUBSCRIBE, {"email": "x@example.org"}, REMOTE_ADDR="192.0.2.9")
    assert other.status_code == 302
