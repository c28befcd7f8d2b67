"""/security/, an advisory's page, the release and series pages, the feed and the site
search, read over the real advisories and catalogue."""

import re

import feedparser
import pytest
from django.test import SimpleTestCase
from django.utils import timezone

from releases.models import Release
from releases.versions import series_sort_key
from search.services import rebuild
from security.models import Advisory
from security.queries import affecting, release_key
from tests.releases import catalogue_facts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("advisories")]
html = SimpleTestCase()


def listed_ids(response):
    return re.findall(
        r'<td data-label="Advisory"><a href="/security/(CVE-[\d-]+)/">', response.content.decode()
    )


class TestPages:
    def test_the_list_is_newest_first_and_paginated(self, client):
        response = client.get("/security/")
        assert response.status_code == 200
        ids = listed_ids(response)
        newest = list(
            Advisory.objects.order_by("-published", "-advisory_id").values_list(
                "advisory_id", flat=True
            )
        )
        assert ids == newest[:25]
        assert "100 advisories." in response.content.decode()
        assert listed_ids(client.get("/security/", {"page": 4})) == newest[75:]

    def test_filters_by_series_severity_and_year(self, client):
        response = client.get("/security/", {"series": "12.3", "severity": "HIGH", "year": "2026"})
        ids = set(listed_ids(response))
        expected = set(
            Advisory.objects.filter(
                ranges__series__version="12.3", rating="HIGH", published__year=2026
            ).values_list("advisory_id", flat=True)
        )
        assert ids == expected and ids
        critical = set(listed_ids(client.get("/security/", {"severity": "CRITICAL"})))
        assert critical == set(
            Advisory.objects.filter(rating="CRITICAL").values_list("advisory_id", flat=True)
        )
        assert "CVE-2021-27928" in critical and len(critical) == 3
        assert listed_ids(client.get("/security/", {"year": "2024"})) == list(
            Advisory.objects.filter(published__year=2024).values_list("advisory_id", flat=True)
        )

    @pytest.mark.parametrize("query", ["CVE-2026-44171", "cve-2026-44171", " CVE-2026-44171 "])
    def test_search_finds_a_cve_by_its_id(self, client, query):
        assert listed_ids(client.get("/security/", {"q": query})) == ["CVE-2026-44171"]

    @pytest.mark.parametrize(
        "query, field",
        [
            ({"series": "99.9"}, "Series"),
            ({"severity": "SEVERE"}, "Severity"),
            ({"year": "next"}, "Year published"),
        ],
    )
    def test_a_filter_value_not_offered_is_a_400_naming_it(self, client, query, field):
        response = client.get("/security/", query)
        assert response.status_code == 400
        assert f"<li>{field}: Select a valid choice." in response.content.decode()

    def test_an_advisory_page_reads_the_vector_out_and_links_the_releases(self, client):
        response = client.get("/security/CVE-2026-47064/")
        assert response.status_code == 200
        html.assertInHTML("<dt>Attack vector</dt><dd>network</dd>", response.content.decode())
        html.assertInHTML("<dt>Privileges required</dt><dd>low</dd>", response.content.decode())
        html.assertInHTML("<dt>Availability impact</dt><dd>high</dd>", response.content.decode())
        html.assertInHTML(
            '<td data-label="Fixed in"><a href="/download/10.6/10.6.26/">10.6.26</a></td>',
            response.content.decode(),
        )
        html.assertInHTML(
            '<td data-label="Series"><a href="/download/12.3/">12.3</a></td>',
            response.content.decode(),
        )
        assert "optimizer" in response.content.decode()
        html.assertInHTML(
            '<li><a href="https://www.oracle.com/security-alerts/cpujul2026.html" rel="noopener">https://www.oracle.com/security-alerts/cpujul2026.html</a></li>',
            response.content.decode(),
        )

    def test_an_advisory_with_an_introduced_release_links_it(self, client):
        response = client.get("/security/CVE-2026-44171/")
        html.assertInHTML('<a href="/download/10.6/10.6.1/">10.6.1</a>', response.content.decode())
        # the affected releases are listed: 10.6.25 is, 10.6.26 (the fix) is not
        details = (
            response.content.decode()
            .split('<a href="/download/10.6/">10.6</a>')[1]
            .split("</tr>")[0]
        )
        assert ">10.6.25</a>" in details and ">10.6.26</a>, " not in details

    def test_an_advisory_without_a_vector_says_so(self, client):
        response = client.get("/security/CVE-2026-44170/")
        assert (
            "No source gives a CVSS 3 vector for CVE-2026-44170: only its score, 5.0."
            in response.content.decode()
        )

    def test_an_unknown_advisory_is_a_404(self, client):
        assert client.get("/security/CVE-1999-0001/").status_code == 404
        assert client.get("/security/osv/CVE-1999-0001.json").status_code == 404

    def test_a_release_page_says_what_it_fixes_what_affects_it_and_what_to_upgrade_to(self, client):
        content = client.get("/download/10.6/10.6.26/").content.decode()
        html.assertInHTML('<a href="/security/CVE-2026-47064/">CVE-2026-47064</a>', content)
        assert "MariaDB 10.6.26 fixes" in content
        older = client.get("/download/10.6/10.6.25/").content.decode()
        assert "known advisories affect MariaDB 10.6.25" in older
        section = older.split('id="security"')[1].split("</section>")[0]
        assert "CVE-2026-47064" in section and "fixed in" in section
        target = Release.objects.get(
            version=re.search(r"Upgrade to <a href=\"/download/[\d.]+/([\d.]+)/\">", section)[1]
        )
        # the oldest supported series after 10.6 whose newest release no advisory affects
        # (which series that is depends on the day: 10.11's end of life is 16 February 2028)
        supported = catalogue_facts.supported(timezone.localdate())
        assert target.series.version in supported and target.files.exists()
        assert series_sort_key(target.series.version) > series_sort_key("10.6")
        passed_over = [
            version
            for version in supported
            if series_sort_key("10.6") < series_sort_key(version) < target.series.sort_key
        ]
        for version in passed_over:
            newest = Release.objects.downloadable().filter(series__version=version).by_version()[0]
            assert affecting(version, release_key(newest)), version

    def test_a_series_page_says_what_is_open_in_it(self, client):
        content = client.get("/download/10.4/").content.decode()
        section = content.split('id="security"')[1].split("</section>")[0]
        assert "still affect the newest release, MariaDB 10.4." in section
        newest = (
            client.get("/download/11.8/")
            .content.decode()
            .split('id="security"')[1]
            .split("</section>")[0]
        )
        assert "No known advisory is open in MariaDB 11.8" in newest

    def test_the_feed_lists_the_advisories_newest_first(self, client):
        response = client.get("/security/feed/")
        assert response.status_code == 200
        titles = [entry.title for entry in feedparser.parse(response.content).entries]
        newest = Advisory.objects.order_by("-published", "-advisory_id").first()
        assert titles[0].startswith(newest.advisory_id)
        assert len(titles) == 50

    def test_the_site_search_finds_an_advisory_by_its_cve_id(self, client):
        rebuild()
        content = client.get("/search/", {"q": "CVE-2026-44171"}).content.decode()
        assert '<a href="/security/CVE-2026-44171/">' in content
        assert "Security advisories" in content

    def test_the_menu_and_the_sitemap_list_the_pages(self, client):
        sitemap = client.get("/sitemap.xml").content.decode()
        assert "/security/</loc>" in sitemap and "/security/affected/</loc>" in sitemap
        assert "/security/CVE-2026-44171/</loc>" in sitemap
        assert 'href="/security/"' in client.get("/").content.decode()
