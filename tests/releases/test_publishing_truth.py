"""Publishing a release makes no broken link and no empty promise (issue 33): the
announcement is live when the release is, a stable release without files is published
only by staff's choice and then says its files are on their way, the archive step says
what happened in one message, and missing notes link to the real ones."""

import re
import socket
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from foundation.models import NewsPost
from releases.models import Release
from releases.release_files import FileRecord
from releases.repoconfig.models import Mirror
from releases.services import importing, publishing
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db

ANNOUNCE = {
    "release_notes": "",
    "announcement_title": "MariaDB 11.8.10 stable released",
    "announcement_summary": "A stable release.",
    "announcement_body": "The project is pleased to announce MariaDB 11.8.10.",
}


@pytest.fixture
def staff_client(client):
    client.force_login(
        get_user_model().objects.create_superuser("publisher", "p@example.org", "pw-tests-only")
    )
    return client


@pytest.fixture
def mirror():
    return Mirror.objects.create(mirror_id="osuosl", name="OSUOSL", country="US",
                                 base_url="https://ftp.osuosl.org/pub/mariadb/")  # fmt: skip


def draft(version="11.8.10", release_date=None, **kwargs):
    """A release kept unpublished, as step 1 of the flow leaves it; released today."""
    series = SeriesFactory(version=".".join(version.split(".")[:2]), eol_date=None)
    ReleaseFactory(
        series=series, version="11.8.9", release_date=timezone.localdate() - timedelta(days=90)
    )
    return ReleaseFactory(series=series, version=version, is_published=False,
                          release_date=release_date or timezone.localdate(), **kwargs)  # fmt: skip


def subscriber(client, capture_on_commit, email="dba@example.org"):
    with capture_on_commit(execute=True):
        client.post("/download/subscribe/", {"email": email})
    (confirmation,) = mail.outbox
    path = re.search(r"https?://[^/\s]+(/download/subscribe/confirm/\S+)", confirmation.body)[1]
    client.post(path)
    mail.outbox.clear()


def site_path(text, prefix):
    match = re.search(r"https?://[^/\s]+(" + re.escape(prefix) + r"\S*)", text)
    assert match, text
    return match.group(1)


def test_the_announcement_is_live_when_the_release_is(
    staff_client, client, django_capture_on_commit_callbacks
):
    """Published before noon of its release day (07:37 in the report; here the release day
    is tomorrow, so noon is always to come): the page and the mail link to a live post."""
    release = draft(release_date=timezone.localdate() + timedelta(days=1))
    ReleaseFileFactory(release=release)
    subscriber(client, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(f"/admin/releases/release/{release.pk}/publish/", ANNOUNCE)
    release.refresh_from_db()
    assert release.is_published
    page = client.get(release.get_absolute_url())
    assertContains(
        page, '<a href="/news/mariadb-11-8-10-released/">Read the announcement</a>', html=True
    )
    assert client.get("/news/mariadb-11-8-10-released/").status_code == 200
    (announcement,) = mail.outbox
    assert client.get(site_path(announcement.body, "/news/")).status_code == 200
    # Publishing again keeps the post's date.
    first = NewsPost.objects.get(slug="mariadb-11-8-10-released").published_at
    publishing.publish_release(release)
    assert NewsPost.objects.get(slug="mariadb-11-8-10-released").published_at == first


def test_an_announcement_not_live_is_linked_from_nothing(
    client, django_capture_on_commit_callbacks
):
    """Staff may move the post to a later time: until then neither the page nor the mail
    links to it."""
    release = draft()
    ReleaseFileFactory(release=release)
    subscriber(client, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        publishing.publish_release(release)
        NewsPost.objects.filter(slug="mariadb-11-8-10-released").update(
            published_at=timezone.now() + timedelta(hours=4)
        )
    assertNotContains(client.get(release.get_absolute_url()), "Read the announcement")
    (announcement,) = mail.outbox
    assert "/news/" not in announcement.body


def test_a_stable_release_without_files_needs_staffs_choice(staff_client, client, mirror):
    release = draft()
    ReleaseFileFactory(release=Release.objects.get(version="11.8.9"))
    refused = staff_client.post(f"/admin/releases/release/{release.pk}/publish/", ANNOUNCE)
    assert refused.status_code == 200
    assertContains(refused, "tick “Publish without files” to publish it now")
    release.refresh_from_db()
    assert not release.is_published
    assert client.get(release.get_absolute_url()).status_code == 404
    with pytest.raises(publishing.FilesMissing):
        publishing.publish_release(release)
    assert not Release.objects.get(pk=release.pk).is_published

    published = staff_client.post(f"/admin/releases/release/{release.pk}/publish/",
                                  {**ANNOUNCE, "without_files": "on"}, follow=True)  # fmt: skip
    assertContains(published, "Its files are marked as on their way until they are imported.")
    release.refresh_from_db()
    assert release.is_published and release.files_pending
    note = release.files_note
    assert note.startswith("The files of MariaDB 11.8.10 are on their way to the mirrors")

    page = client.get(release.get_absolute_url())
    assertContains(page, note)
    download = client.get("/download/?series=11.8")
    assertContains(download, note)
    assertNotContains(download, "No files of MariaDB 11.8.10 are recorded")
    # `latest` stays the newest release a script can download (issue 49)...
    ours = client.get("/api/releases/11.8/latest/").json()
    assert (ours["version"], len(ours["files"]), ours["files_pending"]) == ("11.8.9", 1, False)
    compat = client.get("/rest-api/mariadb/11.8/latest/").json()["releases"]
    assert list(compat) == ["11.8.9"] and len(compat["11.8.9"]["files"]) == 1
    # ... and the compatible series listing, in the one numeric order, holds only releases
    # one can download (update.sh takes the first entry); the new one answers at its own
    # address, marked (below).
    listing = client.get("/rest-api/mariadb/11.8").json()["releases"]
    assert list(listing) == ["11.8.9"]
    series = client.get("/api/releases/11.8/").json()["releases"]
    assert [(r["version"], r["files_pending"]) for r in series] == [
        ("11.8.10", True), ("11.8.9", False)]  # fmt: skip
    summary = next(s for s in client.get("/api/releases/").json() if s["version"] == "11.8")
    assert summary["releases"][0] == {"version": "11.8.10", "maturity": "ga",
                                      "release_date": str(release.release_date), "files_pending": True}  # fmt: skip
    one = client.get("/rest-api/mariadb/11.8.10/").json()["release_data"]["11.8.10"]
    assert (one["files"], one["files_pending"], one["files_note"]) == ([], True, note)
    series_page = client.get("/download/11.8/")
    assertContains(
        series_page,
        '<span class="badge badge-pending" id="pending-11.8.10">Files on their way</span>',
        html=True,
    )
    assertContains(series_page, "<dt>Latest release</dt>", html=False)
    assertContains(series_page, '11.8.9 <span class="muted">(11.8.10: files on their way)</span>')
    feed = client.get("/download/feed/").content.decode()
    assert "MariaDB 11.8.10 (Stable (GA)): files on their way" in feed and note in feed

    # Once its files are recorded, the release is an ordinary one again.
    importing.record_release_files([FileRecord(
        release="11.8.10", file_name="mariadb-11.8.10.tar.gz", path="mariadb-11.8.10/source/mariadb-11.8.10.tar.gz",
        os="source", architecture="", package_type="tar.gz", sha256="a" * 64)])  # fmt: skip
    assert not Release.objects.get(pk=release.pk).files_pending
    assertNotContains(client.get(release.get_absolute_url()), "on their way")
    later = client.get("/rest-api/mariadb/11.8/latest/").json()["releases"]["11.8.10"]
    assert (len(later["files"]), later["files_pending"], later["files_note"]) == (1, False, None)
    assert client.get("/api/releases/11.8/latest/").json()["version"] == "11.8.10"


def test_a_release_with_files_or_not_stable_needs_no_choice(staff_client):
    with_files = draft()
    ReleaseFileFactory(release=with_files)
    response = staff_client.get(f"/admin/releases/release/{with_files.pk}/publish/")
    assertNotContains(response, "Publish without files")
    preview = ReleaseFactory(
        series=with_files.series, version="11.8.11", maturity="rc", is_published=False
    )
    publishing.publish_release(preview)
    preview.refresh_from_db()
    assert preview.is_published and not preview.files_pending


def test_the_admins_other_ways_to_publish_leave_a_release_without_files_unpublished(staff_client):
    release = draft()
    action = staff_client.post("/admin/releases/release/", {
        "action": "publish_and_announce", "_selected_action": [release.pk]}, follow=True)  # fmt: skip
    assertContains(action, "Not published, no files yet: 11.8.10.")
    assert not Release.objects.get(pk=release.pk).is_published
    change = staff_client.post(f"/admin/releases/release/{release.pk}/change/", {
        "series": release.series.pk, "version": "11.8.10", "maturity": "ga",
        "release_date": release.release_date.isoformat(), "release_notes": "", "changelog": "",
        "is_published": "on", "files-TOTAL_FORMS": "0", "files-INITIAL_FORMS": "0",
    }, follow=True)  # fmt: skip
    assertContains(change, "MariaDB 11.8.10 is saved but not published: it has no files yet.")
    assert not Release.objects.get(pk=release.pk).is_published


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_archive_is_one_clear_message(staff_client, settings):
    settings.RELEASE_ARCHIVE_TIMEOUT = 2
    settings.RELEASE_ARCHIVE_LOCATION = f"http://127.0.0.1:{closed_port()}/"
    SeriesFactory(version="11.8", eol_date=None)
    response = staff_client.post("/admin/releases/release/publish/",
                                 {"version": "11.8.10", "release_date": "2026-11-26", "maturity": "ga"},
                                 follow=True)  # fmt: skip
    messages = [str(m) for m in response.context["messages"]]
    assert len(messages) == 1, messages
    assert messages[0].startswith("The release archive could not be reached (http://127.0.0.1:")
    assert messages[0].endswith(
        "so no files were imported. Try again, or publish without files and import them later."
    )
    assertNotContains(response, "The archive could not be read")
    assertNotContains(response, "was found in the archive")
    assertContains(
        response,
        '<input type="submit" name="read_archive" value="Read the archive again">',
        html=True,
    )
    release = Release.objects.get(version="11.8.10")
    again = staff_client.post(
        f"/admin/releases/release/{release.pk}/publish/", {"read_archive": "1"}, follow=True
    )
    [message] = [str(m) for m in again.context["messages"]]
    assert message.startswith("The release archive could not be reached")


def test_an_archive_without_the_release_says_so(staff_client, settings, tmp_path):
    settings.RELEASE_ARCHIVE_LOCATION = str(tmp_path)
    SeriesFactory(version="11.8", eol_date=None)
    response = staff_client.post("/admin/releases/release/publish/",
                                 {"version": "11.8.10", "release_date": "2026-11-26", "maturity": "ga"},
                                 follow=True)  # fmt: skip
    assert [str(m) for m in response.context["messages"]] == [
        "The release archive has no mariadb-11.8.10/ directory yet, so no files were imported. "
        "Try again once the files are uploaded, or publish without files and import them later."
    ]


def test_missing_notes_and_changelog_link_to_the_knowledge_base(client):
    release = ReleaseFactory(series=SeriesFactory(version="11.8", eol_date=None), version="11.8.9")
    page = client.get(release.get_absolute_url())
    assertNotContains(page, "No release notes yet")
    assertNotContains(page, "No changelog yet")
    assertContains(
        page,
        '<a href="https://mariadb.com/kb/en/mariadb-11-8-9-release-notes/">MariaDB 11.8.9 release notes</a>',
        html=True,
    )
    assertContains(
        page,
        '<a href="https://mariadb.com/kb/en/mariadb-11-8-9-changelog/">MariaDB 11.8.9 changelog</a>',
        html=True,
    )
    entry = client.get("/rest-api/mariadb/11.8.9/").json()["release_data"]["11.8.9"]
    assert (entry["release_notes_url"], entry["change_log"]) == (
        "https://mariadb.com/kb/en/mariadb-11-8-9-release-notes/",
        "https://mariadb.com/kb/en/mariadb-11-8-9-changelog/",
    )
    # Staff's own notes replace the link, on the page and in the API.
    release.release_notes, release.changelog = "Our **notes**.", "Ours."
    release.save()
    page = client.get(release.get_absolute_url())
    assertContains(page, "<strong>notes</strong>", html=True)
    assertNotContains(page, "mariadb.com/kb/en/mariadb-11-8-9-release-notes/")
    entry = client.get("/rest-api/mariadb/11.8.9/").json()["release_data"]["11.8.9"]
    assert entry["release_notes_url"].endswith("/download/11.8/11.8.9/#notes")
    assert entry["change_log"].endswith("/download/11.8/11.8.9/#changelog")


def test_the_mail_about_a_release_without_files_says_they_are_on_their_way(
    client, django_capture_on_commit_callbacks
):
    release = draft()
    subscriber(client, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        publishing.publish_release(release, without_files=True)
    (announcement,) = mail.outbox
    assert "with its files and their checksums" not in announcement.body
    assert release.files_note in announcement.body
