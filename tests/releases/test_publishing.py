"""Publishing a release in one staff flow: from the archive to the public site."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from foundation.models import NewsPost
from releases.models import Release
from releases.repoconfig.models import Availability, Distribution, DistributionRelease, Mirror
from tests.releases.archive_tree import build_archive, http_mirror
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(
        get_user_model().objects.create_superuser("publisher", "p@example.org", "pw-tests-only")
    )
    return client


def test_a_new_release_goes_from_the_archive_to_the_public_site(staff_client, tmp_path, settings):
    settings.RELEASE_ARCHIVE_TIMEOUT = 2
    old = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    new_series = SeriesFactory(version="13.3", eol_date=None, status="rc", support_type="long-term")
    ReleaseFactory(series=old, version="12.3.3", release_date=date(2026, 8, 24))
    noble = DistributionRelease.objects.create(
        distribution=Distribution.objects.create(slug="ubuntu", name="Ubuntu", family="apt", repo_path="ubuntu"),
        key="noble", name='24.04 "noble"')  # fmt: skip
    Availability.objects.create(series=old, release=noble, architectures="amd64 arm64")
    build_archive(tmp_path, "13.3.2")
    with http_mirror(tmp_path) as archive_url:
        settings.RELEASE_ARCHIVE_LOCATION = archive_url
        Mirror.objects.create(
            mirror_id="local", name="Local mirror", country="DE", base_url=archive_url
        )
        step1 = staff_client.post("/admin/releases/release/publish/",
                                  {"version": "13.3.2", "release_date": "2026-11-20", "maturity": "ga"}, follow=True)  # fmt: skip
        assertContains(
            step1,
            "5 files of mariadb-13.3.2/ recorded from the release archive (5 new, 0 updated, 0 unchanged). Problems: ",
        )
        release = Release.objects.get(version="13.3.2")
        assert not release.is_published
        assert staff_client.get("/download/13.3/13.3.2/").status_code == 404  # not public yet
        assertContains(step1, "Local mirror (DE): has it")
        assertContains(step1, "mariadb-13.3.2-winx64.msi")
        assertContains(step1, "MariaDB 13.3.2 stable released")  # the template's title, editable
        published = staff_client.post(f"/admin/releases/release/{release.pk}/publish/", {
            "release_notes": "Fixes **many** bugs.", "announcement_title": "MariaDB 13.3.2 is out",
            "announcement_summary": "The first stable 13.3.", "announcement_body": "Edited before it went out.",
        }, follow=True)  # fmt: skip
        assertContains(published, "MariaDB 13.3.2 is published and announced.")
    release.refresh_from_db()
    assert release.is_published and release.series == new_series
    post = NewsPost.objects.get(slug="mariadb-13-3-2-released")
    assert (post.title, post.body, release.announcement) == (
        "MariaDB 13.3.2 is out",
        "Edited before it went out.",
        post,
    )
    page = staff_client.get("/download/13.3/13.3.2/")
    assertContains(page, "<strong>many</strong>", html=True)
    files = staff_client.get("/rest-api/mariadb/13.3.2/").json()["release_data"]["13.3.2"]["files"]
    assert len(files) == 5 and all(
        f["checksum"]["sha512sum"] for f in files if f["os"] != "Windows"
    )
    assert "MariaDB 13.3.2" in staff_client.get("/download/feed/").content.decode()
    # The new series has repositories where the newest built series has them.
    assert list(Availability.objects.filter(series=new_series).values_list("release__key", "architectures")) == [
        ("noble", "amd64 arm64")]  # fmt: skip


def test_the_flow_refuses_bad_input_and_changes_nothing(staff_client):
    SeriesFactory(version="12.3")
    ReleaseFactory(series__version="12.3", version="12.3.3")
    for data, reason in [({"version": "12.3.3", "release_date": "2026-08-24", "maturity": "ga"}, "already published"),
                         ({"version": "14.9.1", "release_date": "2026-08-24", "maturity": "ga"}, "There is no series 14.9"),
                         ({"version": "12.3", "release_date": "2026-08-24", "maturity": "ga"}, "is not a release version")]:  # fmt: skip
        response = staff_client.post("/admin/releases/release/publish/", data)
        assertContains(response, reason)
    assert Release.objects.count() == 1


def test_only_staff_who_may_change_releases_reach_the_flow(client):
    client.force_login(
        get_user_model().objects.create_user("viewer", "v@example.org", "pw", is_staff=True)
    )
    assert client.get("/admin/releases/release/publish/").status_code == 403


def test_the_build_system_posts_a_release_with_a_staff_token(client, tmp_path, settings):
    from rest_framework.authtoken.models import Token

    settings.RELEASE_ARCHIVE_TIMEOUT = 2
    SeriesFactory(version="12.3")
    builder = get_user_model().objects.create_superuser(
        "buildbot", "b@example.org", "pw-tests-only"
    )
    token = Token.objects.create(user=builder)
    build_archive(tmp_path, "12.3.4")
    settings.RELEASE_ARCHIVE_LOCATION = str(tmp_path)
    body = {"version": "12.3.4", "release_date": "2026-11-20", "maturity": "ga"}
    assert client.post(
        "/api/releases/drafts/", body, content_type="application/json"
    ).status_code in (401, 403)
    response = client.post("/api/releases/drafts/", body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {token.key}")  # fmt: skip
    assert response.status_code == 201
    answer = response.json()
    assert (answer["version"], answer["published"], answer["files"]) == ("12.3.4", False, 4)
    assert any(problem.startswith("MISMATCH") for problem in answer["problems"])
    assert answer["review_url"].endswith(
        f"/admin/releases/release/{Release.objects.get(version='12.3.4').pk}/publish/"
    )
    assert not Release.objects.get(version="12.3.4").is_published  # staff publish it after review
    bad = client.post("/api/releases/drafts/", {**body, "version": "12.3"}, content_type="application/json",
                      HTTP_AUTHORIZATION=f"Token {token.key}")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"].startswith("version:")


def test_the_review_page_gives_sizes_in_binary_units_named_as_such(staff_client):
    release = ReleaseFactory(series=SeriesFactory(version="12.3"), version="12.3.4")
    ReleaseFileFactory(release=release, size=96_761_750)
    response = staff_client.get(f"/admin/releases/release/{release.pk}/publish/")
    assertContains(response, "<td>92.3\xa0MiB</td>", html=True)


def test_the_review_page_says_what_is_known_of_mirrors_it_could_not_ask(staff_client):
    """Issue 49: every mirror "did not answer" when the mirror check had never run and this
    server could not reach them."""
    release = ReleaseFactory(series=SeriesFactory(version="12.3"), version="12.3.4")
    Mirror.objects.create(mirror_id="never", name="Never checked", country="DE",
                          base_url="https://127.0.0.1:9/")  # fmt: skip
    Mirror.objects.create(mirror_id="seen", name="Checked before", country="US",
                          base_url="https://127.0.0.1:9/other/", healthy=True,
                          checked_at=timezone.make_aware(timezone.datetime(2026, 11, 27, 9, 5)))  # fmt: skip
    response = staff_client.get(f"/admin/releases/release/{release.pk}/publish/")
    assertContains(response, "<li>Never checked (DE): not known: this server could not ask it just now (ConnectionError), and the mirror check has never run for it</li>", html=True)  # fmt: skip
    assertContains(response, "<li>Checked before (US): did not answer just now (ConnectionError); the mirror check found it answering on 27 November 2026 09:05</li>", html=True)  # fmt: skip
    assertNotContains(response, "Never checked (DE): did not answer")
