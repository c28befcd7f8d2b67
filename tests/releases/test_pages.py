import re

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from releases.models import Series
from tests.releases import catalogue_facts
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db


def test_a_series_without_a_ga_release_is_never_the_default(client):
    SeriesFactory(version="13.0", status="preview", support_type="unannounced", eol_date=None)
    ReleaseFileFactory(
        release=ReleaseFactory(series__version="13.0", version="13.0.0", maturity="preview")
    )
    ReleaseFileFactory(
        release=ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.5")
    )
    assertContains(
        client.get("/download/"),
        '<option value="11.4.5" selected>11.4.5 (Stable (GA), 29 May 2024)</option>',
        html=True,
    )


def test_a_file_without_recorded_checksums_points_to_the_mirrors_list(client):
    from releases.repoconfig.models import Mirror

    Mirror.objects.create(mirror_id="osuosl", name="OSUOSL", country="US",
                          base_url="https://ftp.osuosl.org/pub/mariadb/")  # fmt: skip
    file = ReleaseFileFactory(sha256="", sha512="")
    response = client.get(file.release.get_absolute_url())
    assertContains(
        response,
        f'<a href="https://ftp.osuosl.org/pub/mariadb/mariadb-{file.release.version}/source/sha256sums.txt">The mirror\'s <code>sha256sums.txt</code></a>',
        html=True,
    )
    assert "sha256sum --ignore-missing -c sha256sums.txt" in response.content.decode()
    assert "| sha256sum -c -" not in response.content.decode()


class TestOnTheCatalogue:
    """Tests that read the real catalogue (loaded once for the class)."""

    def test_download_defaults_to_the_latest_ga_of_the_newest_long_term_series(
        self, client, catalogue, django_assert_max_num_queries
    ):
        with django_assert_max_num_queries(8):
            response = client.get("/download/")
        # 12.3 is the newest long-term series with a stable release (13.x are previews, 12.2 is
        # short-term and past its end of life).
        assertContains(
            response,
            '<option value="12.3" selected>MariaDB 12.3 (Long-term support)</option>',
            html=True,
        )
        assertContains(
            response,
            '<option value="12.3.3" selected>12.3.3 (Stable (GA), 24 Aug 2026)</option>',
            html=True,
        )
        html = response.content.decode()
        assert html.index('label="Supported"') < html.index(">MariaDB 11.4 (Long-term") < html.index(
            'label="End of life"') < html.index(">MariaDB 10.4 (end of life)")  # fmt: skip
        # Only series with a file here are offered.
        offered = set(re.findall(r'<option value="(\d+\.\d+)"', html))
        with_files = set(
            Series.objects.filter(releases__files__isnull=False).values_list("version", flat=True)
        )
        assert offered == with_files
        assert Series.objects.exclude(version__in=with_files).exists()  # some have none
        assert "mariadb-12.3.3-winx64.msi" in html

    def test_series_index_groups_supported_and_end_of_life(
        self, client, catalogue, django_assert_max_num_queries
    ):
        with django_assert_max_num_queries(5):
            response = client.get("/download/series/")
        html = response.content.decode()
        supported, previews_and_eol = html.split('id="previews-title"')
        previews, end_of_life = previews_and_eol.split('id="eol-title"')
        today = timezone.localdate()
        expected_supported = catalogue_facts.supported(today)
        expected_end_of_life = catalogue_facts.end_of_life(today)
        assert expected_supported and {"12.2", "10.6", "10.0", "5.1"} <= expected_end_of_life
        listed = re.compile(r">MariaDB ([0-9.]+)</a>")
        assert set(listed.findall(supported)) == expected_supported
        assert set(listed.findall(end_of_life)) == expected_end_of_life
        assert ">MariaDB 13.1</a>" in previews and ">MariaDB 13.1</a>" not in supported
        assertContains(
            response,
            '<td data-label="Latest release"><a href="/download/11.4/11.4.13/">11.4.13</a></td>',
            html=True,
        )

    def test_series_page_lists_releases_with_maturity_and_dates_paginated(
        self, client, catalogue, django_assert_max_num_queries
    ):
        # The page (series, releases, their count, usage rollups, download counts, the
        # advisories of the series) plus the page cache's look-up of the next scheduled
        # news post.
        with django_assert_max_num_queries(11):
            first = client.get("/download/10.1/")
        assertContains(first, "48 releases, newest first.")
        assertContains(
            first,
            '<a class="release-version" href="/download/10.1/10.1.48/">10.1.48</a>',
            html=True,
        )
        assertContains(first, "Page 1 of 2")
        with django_assert_max_num_queries(11):  # the same queries for any page
            second = client.get("/download/10.1/", {"page": 2})
        assertContains(second, '<span class="badge badge-alpha">Alpha</span>', html=True)
        # (the security section names the newest release on every page; the list does not)
        assert (
            'class="release-version" href="/download/10.1/10.1.48/"' not in second.content.decode()
        )
        # a page that is not a number is a 400 naming it (core.numbers)
        assert client.get("/download/10.1/", {"page": "x"}).status_code == 400
        assert client.get("/download/10.1/", {"page": "x\x00"}).status_code == 400
