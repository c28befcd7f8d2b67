"""Every release has its announcement in the news (issue 49, item 2): the catalogue import
writes one from the catalogue's facts, labelled as generated, where staff wrote none; the
newest release of every maintained series has its post, dated with the release."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.utils import timezone
from pytest_django.asserts import assertContains

from foundation.models import NewsPost
from releases.demo import load_catalogue
from releases.models import Release, Series
from releases.services import announcing, publishing
from tests.foundation.factories import NewsPostFactory
from tests.releases import catalogue_facts
from tests.releases.factories import ReleaseFactory, SeriesFactory

pytestmark = pytest.mark.django_db

LABEL = "Generated from the release catalogue"


def test_the_import_announces_every_release_with_its_real_facts(client):
    load_catalogue()
    releases = Release.objects.published().select_related("series", "announcement")
    assert releases.count() == 482 and not releases.filter(announcement=None).exists()
    assert NewsPost.objects.published().filter(categories__name="Releases").count() == 482
    today = timezone.localdate()
    maintained = [s for s in Series.objects.all() if not s.is_eol(today)]
    assert {s.version for s in maintained} == catalogue_facts.not_end_of_life(today)
    for series in maintained:
        newest = series.releases.published().by_version().first()
        post = newest.announcement
        assert post.is_live and post.published_at.date() == newest.release_date, series
    # What the issue found stale: 11.8.9 of 24 August 2026, with its real date and facts.
    page = client.get("/news/mariadb-11-8-9-released/")
    assertContains(page, "MariaDB 11.8.9 stable released")
    assertContains(
        page, '<time datetime="2026-08-24T12:00:00+00:00">24 August 2026</time>', html=True
    )
    assertContains(page, LABEL)
    assertContains(
        page, "MariaDB 11.8.9 is a stable release of MariaDB 11.8, released on 24 August 2026."
    )
    assertContains(
        page, "MariaDB 11.8 is a long-term support series, maintained until 4 June 2028."
    )
    assertContains(
        page,
        '<a href="https://mariadb.com/kb/en/mariadb-11-8-9-release-notes/" rel="noopener noreferrer nofollow">release notes</a>',
        html=True,
    )
    assertContains(
        page,
        '<a href="https://mariadb.com/kb/en/mariadb-11-8-9-changelog/" rel="noopener noreferrer nofollow">changelog</a>',
        html=True,
    )
    first = client.get("/news/mariadb-12-3-2-released/")
    assertContains(first, "It is the first stable (GA) release of the series.")
    preview = client.get("/news/mariadb-13-1-0-released/")
    assertContains(preview, "MariaDB 13.1.0 is a preview release of MariaDB 13.1")
    assertContains(preview, "Do not use preview releases on production systems.")
    # The news is no longer stale: the newest posts are the newest releases.
    news = client.get("/news/").content.decode()
    assert news.index("MariaDB 13.0.2") < news.index("MariaDB 12.3.3")
    # Found by the site search, as the other posts are.
    assertContains(
        client.get("/search/", {"q": "11.8.9 released"}), "/news/mariadb-11-8-9-released/"
    )


def test_the_import_keeps_staffs_posts_and_writes_each_post_once():
    staff_post = NewsPostFactory(
        slug="mariadb-11-8-9-released", title="Our own words", body="Hand-written."
    )
    load_catalogue()
    load_catalogue()
    release = Release.objects.get(version="11.8.9")
    assert release.announcement == staff_post
    staff_post.refresh_from_db()
    assert (staff_post.title, staff_post.body) == ("Our own words", "Hand-written.")
    assert NewsPost.objects.filter(slug__startswith="mariadb-").count() == 482


def test_publishing_without_staffs_text_is_labelled_and_with_it_is_not():
    series = SeriesFactory(version="12.3", eol_date=date(2029, 6, 12))
    plain = ReleaseFactory(
        series=series, version="12.3.4", is_published=False, release_notes="Fixes MDEV-1."
    )
    publishing.publish_release(plain, without_files=True)
    post = NewsPost.objects.get(slug="mariadb-12-3-4-released")
    assert post.byline == LABEL and LABEL in post.body
    assert "## What it fixes\n\nFixes MDEV-1." in post.body
    written = ReleaseFactory(series=series, version="12.3.5", is_published=False)
    publishing.publish_release(
        written,
        {"title": "12.3.5 is out", "summary": "Out.", "body": "Our text."},
        without_files=True,
    )
    post = NewsPost.objects.get(slug="mariadb-12-3-5-released")
    assert (post.byline, post.body) == ("The MariaDB Foundation", "Our text.")


@pytest.mark.parametrize("days_after_release", [0, 400, 800, 3000])
def test_an_announcement_says_what_was_true_on_the_release_day_whenever_it_is_written(
    days_after_release,
):
    """Written on the release's day or years later (an import on any day), the post says
    the support the series had when the release came out."""
    series = SeriesFactory(version="11.8", eol_date=date(2028, 6, 4))
    release = ReleaseFactory(series=series, version="11.8.9", release_date=date(2026, 8, 24))
    written_on = datetime.combine(
        release.release_date + timedelta(days=days_after_release), time(15), tzinfo=UTC
    )
    with time_machine.travel(written_on, tick=False):
        announcing.announce_from_catalogue([release])
    post = NewsPost.objects.get(slug="mariadb-11-8-9-released")
    assert "MariaDB 11.8 is a long-term support series, maintained until 4 June 2028." in post.body
    assert "no more fixes" not in post.body
