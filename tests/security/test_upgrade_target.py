"""The upgrade target is a release one can download: the newest release with files of the
fixing series (issue 60: "Upgrade to MariaDB 11.4.99", a release with no files, while
/rest-api/mariadb/11.4/latest/ answered 11.4.13)."""

from datetime import date, timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from security.queries import upgrade_target
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory
from tests.security.factories import AffectedRangeFactory

pytestmark = pytest.mark.django_db


def maintained(version):
    return SeriesFactory(version=version, eol_date=timezone.localdate() + timedelta(days=400))


def release(series, patch, *, files=True, **fields):
    made = ReleaseFactory(series=series, version=f"{series.version}.{patch}", **fields)
    if files:
        ReleaseFileFactory(release=made)
    return made


def test_a_newer_release_without_files_is_never_the_target(client):
    series = maintained("11.4")
    vulnerable = release(series, 10)
    fixed = release(series, 13)
    release(series, 99, files=False, files_pending=True)  # published, its files on their way
    release(series, 50, files=False)  # published, no file recorded here
    AffectedRangeFactory(series=series, fixed=release(series, 11, files=False))
    assert upgrade_target("11.4", timezone.localdate()).release == fixed
    answer = client.get("/api/security/affected/", {"version": "11.4.10-MariaDB-log"}).json()
    assert answer["upgrade_to"]["version"] == "11.4.13"
    page = client.get("/security/affected/", {"version": "11.4.10-MariaDB-log"}).content.decode()
    assert 'Upgrade to <a href="/download/11.4/11.4.13/">MariaDB 11.4.13</a>' in page
    assert "11.4.99" not in page and vulnerable.version in page


def test_a_series_with_nothing_to_download_is_passed_over_for_the_next():
    old = maintained("10.11")
    release(old, 5)
    release(old, 20, files=False)
    AffectedRangeFactory(series=old)  # nothing in 10.11 is fixed
    newer = maintained("11.4")
    release(newer, 30, files=False)
    next_one = maintained("11.8")
    target = release(next_one, 9)
    release(next_one, 10, files=False, files_pending=True)
    upgrade = upgrade_target("10.11", timezone.localdate())
    assert (upgrade.release, upgrade.same_series) == (target, False)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.tuples(st.integers(1, 60), st.booleans()),
        min_size=1,
        max_size=8,
        unique_by=lambda t: t[0],
    )
)
def test_the_target_is_always_the_newest_release_with_files(releases):
    series = maintained("12.3")
    series.releases.all().delete()
    for patch, has_files in releases:
        release(series, patch, files=has_files, release_date=date(2026, 1, 1))
    with_files = [patch for patch, has_files in releases if has_files]
    target = upgrade_target("12.3", timezone.localdate()).release
    if with_files:
        assert target.version == f"12.3.{max(with_files)}"
    else:
        assert target is None
