"""Downloads by name (releases.downloads): the redirect's lookups kept with the content,
each download counted in Redis and moved into the database by the beat task, and counted
in the database straight away when Redis cannot be reached."""

import os
import subprocess
import sys
from datetime import date

import pytest
from django.core.cache import cache
from django.db.models import Sum

from releases import downloads, tasks
from releases.models import DownloadCount
from releases.repoconfig.models import Mirror
from tests.core.test_outages import CLOSED_REDIS, cache_settings
from tests.foundation.factories import UserFactory
from tests.project import ROOT
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def msi(mirrors):
    release = ReleaseFactory(series=SeriesFactory(version="12.3"), version="12.3.3",
                             release_date=date(2026, 8, 24))  # fmt: skip
    name = "mariadb-12.3.3-winx64.msi"
    return ReleaseFileFactory(release=release, os="windows", architecture="x86_64",
                              package_type="msi", file_name=name,
                              path=f"mariadb-12.3.3/winx64-packages/{name}")  # fmt: skip


def download(client, file, **query):
    return client.get(f"/rest-api/mariadb/{file.release.version}/{file.file_name}", query)


def total_counted():
    return DownloadCount.objects.aggregate(total=Sum("count"))["total"] or 0


def test_downloads_wait_in_redis_until_the_flush_moves_them_once(client, msi):
    for _ in range(3):
        assert download(client, msi)["Location"] == (
            "https://ftp.agdsn.de/pub/mirrors/mariadb/mariadb-12.3.3/winx64-packages/"
            "mariadb-12.3.3-winx64.msi"
        )
    assert total_counted() == 0  # still in Redis
    assert tasks.flush_download_counts.delay().get() == {"moved": 3}
    assert tasks.flush_download_counts.delay().get() == {"moved": 0}
    download(client, msi)
    assert tasks.flush_download_counts.delay().get() == {"moved": 1}
    row = DownloadCount.objects.get()
    assert (row.release, row.os, row.architecture, row.count) == (
        msi.release, "windows", "x86_64", 4)  # fmt: skip


def test_unpublishing_a_release_or_a_sick_mirror_changes_the_redirect_at_once(client, msi):
    assert download(client, msi, mirror="osuosl").status_code == 302
    # The lookups are kept now; each save below must replace them.
    osuosl = Mirror.objects.get(mirror_id="osuosl")
    osuosl.healthy = False
    osuosl.save()
    refused = download(client, msi, mirror="osuosl")
    assert refused.status_code == 400
    assert refused.json() == {"error": "No such usable mirror; see /rest-api/mirrors/."}
    release = msi.release
    release.is_published = False
    release.save()
    assert download(client, msi).status_code == 404


def test_with_redis_unreachable_each_download_is_counted_in_the_database(client, msi, settings):
    settings.CACHES = cache_settings(CLOSED_REDIS)
    for _ in range(2):
        assert download(client, msi).status_code == 302
    assert total_counted() == 2


def test_a_flush_the_database_refuses_keeps_the_counter_for_the_next(client, msi, monkeypatch):
    download(client, msi)
    download(client, msi)

    def refuse(*args):
        raise RuntimeError("database refused the row")

    monkeypatch.setattr(downloads, "add_to_counts", refuse)
    with pytest.raises(RuntimeError):
        downloads.flush_download_counts()
    monkeypatch.undo()
    assert total_counted() == 0
    assert downloads.flush_download_counts() == 2
    assert total_counted() == 2


def test_counters_expire_if_never_flushed(client, msi):
    download(client, msi)
    (key,) = cache.keys(f"{downloads.TALLY_PREFIX}:*")
    assert 0 < cache.ttl(key) <= downloads.TALLY_KEEP_SECONDS


def test_without_redis_as_in_development_each_download_is_counted_at_once(client, msi, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert download(client, msi).status_code == 302
    assert total_counted() == 1
    assert downloads.flush_download_counts() == 0


def test_a_busy_worker_adds_up_counts_and_hands_them_over_at_exit(client, msi, settings):
    """In production each process hands its counts to Redis at most every
    TALLY_BUFFER_SECONDS, and when the process stops (an exit hook)."""
    settings.TALLY_BUFFER_SECONDS = 3600
    downloads.hand_over_counts()  # start the interval now
    for _ in range(3):
        assert download(client, msi).status_code == 302
    assert cache.keys(f"{downloads.TALLY_PREFIX}:*") == []  # still in this process
    downloads.hand_over_counts()
    assert downloads.flush_download_counts() == 3


def test_a_process_that_exits_hands_its_buffered_counts_over(msi, settings):
    """What a gunicorn worker does as it stops: the releases app's exit hook hands the
    counts still buffered in the process to Redis, where the flush finds them."""
    place = downloads.FilePlace(msi.release_id, msi.os, msi.architecture, msi.path)
    code = (
        "import django; django.setup(); from releases import downloads; "
        f"place = downloads.{place!r}; "
        "[downloads.record_download(place) for _ in range(2)]"
    )
    env = {
        **os.environ,
        "TALLY_BUFFER_SECONDS": "3600",
        "REDIS_URL": settings.CACHES["default"]["LOCATION"],
    }
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)
    assert downloads.flush_download_counts() == 2


def test_counts_handed_over_while_redis_is_away_go_to_the_database(client, msi, settings):
    settings.TALLY_BUFFER_SECONDS = 3600
    downloads.hand_over_counts()
    download(client, msi)
    download(client, msi)
    settings.CACHES = cache_settings(CLOSED_REDIS)
    downloads.hand_over_counts()
    assert total_counted() == 2


def test_the_redirect_is_the_same_for_strangers_and_members_and_errors_are_worded(client, msi):
    """Anonymous requests are answered before the middleware stack
    (core.pagecache.answer_early); members go through the view; both count."""
    stranger = download(client, msi)
    client.force_login(UserFactory())
    member = download(client, msi)
    assert stranger.status_code == member.status_code == 302
    assert stranger["Location"] == member["Location"]
    assert tasks.flush_download_counts.delay().get() == {"moved": 2}
    client.logout()
    missing = client.get("/rest-api/mariadb/12.3.3/no-such-file.zip")
    assert (missing.status_code, missing.json()) == (404, {"error": "No such file."})
    sick = download(client, msi, mirror="no-such-mirror")
    assert sick.status_code == 400
    assert sick.json() == {"error": "No such usable mirror; see /rest-api/mirrors/."}


def test_a_head_request_answers_the_redirect_without_counting_a_download(client, msi):
    path = f"/rest-api/mariadb/{msi.release.version}/{msi.file_name}"
    anonymous = client.head(path)
    client.force_login(UserFactory())
    member = client.head(path, {"mirror": "osuosl"})
    assert (anonymous.status_code, member.status_code) == (302, 302)
    assert anonymous["Location"].endswith(msi.path)
    assert tasks.flush_download_counts.delay().get() == {"moved": 0}
    download(client, msi)
    assert tasks.flush_download_counts.delay().get() == {"moved": 1}


def test_with_every_mirror_down_a_download_answers_503_with_retry_after(client, msi):
    Mirror.objects.update(healthy=False)
    path = f"/rest-api/mariadb/{msi.release.version}/{msi.file_name}"
    unavailable = client.get(path)
    assert (unavailable.status_code, unavailable.json()) == (
        503, {"error": "No mirror is answering right now; try again later."})  # fmt: skip
    assert unavailable["Retry-After"] == "600"
    assert tasks.flush_download_counts.delay().get() == {"moved": 0}
    osuosl = Mirror.objects.get(mirror_id="osuosl")
    osuosl.healthy = True
    osuosl.save()  # as the health check does: the kept mirror list is replaced
    unknown = client.get(path, {"mirror": "no-such-mirror"})
    assert (unknown.status_code, unknown.json()) == (
        400, {"error": "No such usable mirror; see /rest-api/mirrors/."})  # fmt: skip
