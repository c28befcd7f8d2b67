"""Mirror health and freshness, checked against real local HTTP servers acting as mirrors."""

import socket
from contextlib import ExitStack
from datetime import UTC, date, datetime

import pytest
from django.contrib.auth import get_user_model
from pytest_django.asserts import assertContains

from releases import tasks
from releases.repoconfig.models import Mirror
from tests.releases.archive_tree import build_archive, http_mirror
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db

GERMAN_ADDRESS = "193.99.144.80"  # iptocc: DE
NOW = datetime(2026, 8, 28, 12, 0, tzinfo=UTC)


def closed_port_url():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/"


@pytest.fixture
def three_mirrors(tmp_path, settings):
    """An up-to-date mirror in the US, one in Germany four days behind, and one that is down;
    a German mirror that has the release too."""
    settings.RELEASE_ARCHIVE_TIMEOUT = 2
    release = ReleaseFactory(series=SeriesFactory(version="12.3"), version="12.3.3",
                             release_date=date(2026, 8, 24))  # fmt: skip
    file = ReleaseFileFactory(release=release)
    current, behind, german = tmp_path / "current", tmp_path / "behind", tmp_path / "german"
    build_archive(current, "12.3.3")
    build_archive(behind, "12.3.2")
    build_archive(german, "12.3.3")
    with ExitStack() as stack:
        urls = [stack.enter_context(http_mirror(root)) for root in (current, behind, german)]
        Mirror.objects.create(
            mirror_id="current", name="Current", country="US", base_url=urls[0], fallback_order=1
        )
        Mirror.objects.create(
            mirror_id="behind", name="Behind", country="DE", base_url=urls[1], fallback_order=0
        )
        Mirror.objects.create(
            mirror_id="down",
            name="Down",
            country="NL",
            base_url=closed_port_url(),
            fallback_order=0,
        )
        Mirror.objects.create(
            mirror_id="german", name="German", country="DE", base_url=urls[2], fallback_order=5
        )
        yield release, file, urls


def test_the_periodic_check_records_health_and_freshness(three_mirrors, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    result = tasks.check_mirrors.delay().get()
    assert result == {"behind": {"healthy": True, "fresh": False}, "current": {"healthy": True, "fresh": True},
                      "down": {"healthy": False, "fresh": None}, "german": {"healthy": True, "fresh": True}}  # fmt: skip
    behind = Mirror.objects.get(mirror_id="behind")
    assert (behind.hours_late, behind.checked_at) == (4 * 24 + 12, NOW)
    down = Mirror.objects.get(mirror_id="down")
    assert (
        down.check_error.startswith("http://127.0.0.1:") and "ConnectionError" in down.check_error
    )
    assert Mirror.objects.get(mirror_id="current").newest_release_seen == "12.3.3"


def test_redirects_go_to_usable_mirrors_the_visitors_country_first(
    client, three_mirrors, monkeypatch
):
    _release, file, urls = three_mirrors
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    tasks.check_mirrors.delay()
    url = f"/rest-api/mariadb/12.3.3/{file.file_name}"
    # From Germany: the German mirror that is up to date, not the one behind (fallback 0).
    assert client.get(url, REMOTE_ADDR=GERMAN_ADDRESS)["Location"] == urls[2] + file.path
    # From nowhere known: the fallback order among usable mirrors ("down" and "behind" skipped).
    assert client.get(url)["Location"] == urls[0] + file.path
    refused = client.get(url, {"mirror": "behind"})
    assert refused.status_code == 400 and "usable mirror" in refused.json()["error"]
    assert set(client.get("/rest-api/mirrors/").json()["mirror_list"]) == {"US", "DE"}
    page = client.get("/download/", REMOTE_ADDR=GERMAN_ADDRESS)
    assertContains(page, "Downloads come from <strong>German</strong> (DE)")
    assert "private" in page["Cache-Control"]
    html = page.content.decode()
    assert 'value="behind"' not in html and 'value="down"' not in html and 'value="current"' in html


def test_staff_see_mirror_status_in_the_admin(client, three_mirrors, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    staff = get_user_model().objects.create_superuser(
        "mirrors", "m@example.org", "pw-for-tests-only"
    )
    client.force_login(staff)
    response = client.post("/admin/repoconfig/mirror/", {
        "action": "check_now", "_selected_action": list(Mirror.objects.values_list("pk", flat=True))}, follow=True)  # fmt: skip
    assertContains(response, "4 mirrors checked, 2 usable.")
    listing = client.get("/admin/repoconfig/mirror/?fresh__exact=0")
    assertContains(listing, "Behind")
    assertContains(listing, "108")  # hours late
    assert "German" not in listing.content.decode()
