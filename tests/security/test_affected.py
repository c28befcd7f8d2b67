"""For any release, the page and the API name exactly the advisories whose ranges include
it, over the whole advisories file, the edge releases of every range included; and a
release to upgrade to."""

import json
import re

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from releases.models import Release, Series
from security.advisory_file import IN_REPO_ADVISORIES
from security.queries import affecting, ranges_in, release_key

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("advisories")]

RAW = json.loads(IN_REPO_ADVISORIES.read_text())["advisories"]


def key(version):
    return tuple(int(part) for part in version.split("."))


def expected_ids(version):
    """The file's notes, as written: affected if it has an entry for the series with
    introduced "0" or <= R, and fixed null or R < fixed."""
    series = version.rpartition(".")[0]
    found = set()
    for advisory in RAW:
        for entry in advisory["affected"]:
            if entry["series"] != series:
                continue
            started = entry["introduced"] == "0" or key(entry["introduced"]) <= key(version)
            not_fixed = entry["fixed"] is None or key(version) < key(entry["fixed"])
            if started and not_fixed:
                found.add(advisory["id"])
    return found


def edge_releases():
    """For every range of the file: its first affected release (the series' first release
    for "0"), its fixed release and the release just before the fix."""
    releases = {}
    for release in Release.objects.published().order_by(
        "version_major", "version_minor", "version_patch"
    ):
        releases.setdefault(f"{release.version_major}.{release.version_minor}", []).append(
            release.version
        )
    edges = []
    for advisory in RAW:
        for entry in advisory["affected"]:
            in_series = releases[entry["series"]]
            first = in_series[0] if entry["introduced"] == "0" else entry["introduced"]
            edges.append((advisory["id"], first, True))
            if entry["fixed"]:
                edges.append((advisory["id"], entry["fixed"], False))
                before = in_series[in_series.index(entry["fixed"]) - 1]
                if before != entry["fixed"] and key(before) >= key(first):
                    edges.append((advisory["id"], before, True))
    return edges


class TestWholeFile:
    def test_every_release_is_affected_by_exactly_the_advisories_whose_ranges_include_it(self):
        ranges = ranges_in()
        releases = list(Release.objects.published().select_related("series"))
        assert len(releases) > 450
        for release in releases:
            found = {
                r.advisory.advisory_id
                for r in affecting(release.series.version, release_key(release), ranges)
            }
            assert found == expected_ids(release.version), release.version

    def test_introduced_is_affected_fixed_is_not_and_the_release_before_the_fix_is(self):
        ranges = ranges_in()
        edges = edge_releases()
        assert len(edges) > 1000
        for advisory_id, version, is_affected in edges:
            found = {
                r.advisory.advisory_id
                for r in affecting(version.rpartition(".")[0], key(version), ranges)
            }
            assert (advisory_id in found) is is_affected, (advisory_id, version)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def test_the_api_names_the_same_advisories_for_edge_releases_with_any_suffix(
        self, client, data
    ):
        advisory_id, version, is_affected = data.draw(st.sampled_from(edge_releases()))
        suffix = data.draw(
            st.sampled_from(
                [
                    "",
                    "-MariaDB",
                    "-MariaDB-log",
                    "-MariaDB-0ubuntu0.22.04.1-log",
                    "-MariaDB-1:{v}+maria~ubu2004",
                ]
            )
        )
        response = client.get(
            "/api/security/affected/", {"version": version + suffix.format(v=version)}
        )
        assert response.status_code == 200
        answer = response.json()
        assert answer["version"] == version
        assert answer["series"] == version.rpartition(".")[0]
        ids = {a["id"] for a in answer["advisories"]}
        assert ids == expected_ids(version)
        assert (advisory_id in ids) is is_affected
        for item in answer["advisories"]:
            raw = next(a for a in RAW if a["id"] == item["id"])
            entry = next(e for e in raw["affected"] if e["series"] == answer["series"])
            assert item["fixed"] == entry["fixed"]
            assert item["severity"]["rating"] == raw["severity"]["rating"]
        upgrade = answer["upgrade_to"]
        assert upgrade is not None
        assert expected_ids(upgrade["version"]) == set()

    def test_upgrade_to_is_the_newest_release_of_a_maintained_series(self, client):
        answer = client.get("/api/security/affected/", {"version": "11.4.10-MariaDB-log"}).json()
        newest = Release.objects.latest_in("11.4")
        assert answer["upgrade_to"]["version"] == newest.version
        assert answer["upgrade_to"]["same_series"] is True
        assert {"CVE-2026-47064", "CVE-2026-44171"} <= {a["id"] for a in answer["advisories"]}

    def test_upgrade_to_is_in_the_next_maintained_series_when_the_series_has_ended(self, client):
        today = timezone.localdate()
        answer = client.get(
            "/api/security/affected/", {"version": "10.5.20-MariaDB-1:10.5.20+maria~ubu2004"}
        ).json()
        assert Series.objects.get(version="10.5").is_eol(today)
        upgrade = Release.objects.get(version=answer["upgrade_to"]["version"])
        assert not upgrade.series.is_eol(today)
        assert upgrade.maturity == Release.Maturity.GA
        assert key(upgrade.series.version + ".0") > (10, 5, 0)
        assert (
            upgrade
            == Release.objects.downloadable()
            .ga()
            .filter(series=upgrade.series)
            .by_version()
            .first()
        )
        maintained_between = [
            s
            for s in Series.objects.with_release_facts().filter(has_ga=True)
            if (10, 5) < s.sort_key < upgrade.series.sort_key and not s.is_eol(today)
        ]
        assert maintained_between == []
        assert answer["upgrade_to"]["same_series"] is False

    @pytest.mark.parametrize(
        "printed, version",
        [
            ("10.6.12-MariaDB-0ubuntu0.22.04.1-log", "10.6.12"),
            ("11.4.10-MariaDB-log", "11.4.10"),
            ("10.5.20-MariaDB-1:10.5.20+maria~ubu2004", "10.5.20"),
        ],
    )
    def test_the_page_lists_exactly_the_advisories_and_the_upgrade(self, client, printed, version):
        response = client.get("/security/affected/", {"version": printed})
        assert response.status_code == 200
        html = response.content.decode()
        table = html.split('<table class="release-table advisory-table">')[1].split("</table>")[0]
        assert set(re.findall(r">(CVE-\d{4}-\d+)</a>", table)) == expected_ids(version)
        upgrade = client.get("/api/security/affected/", {"version": printed}).json()["upgrade_to"]
        assert (
            f'Upgrade to <a href="/download/{upgrade["series"]}/{upgrade["version"]}/">MariaDB {upgrade["version"]}</a>'
            in html
        )

    @pytest.mark.parametrize(
        "printed, reason",
        [
            ("MariaDB 10.6", "does not start with a MariaDB release number"),
            ("", "Give the version"),
            ("8.0.36", "MariaDB has no release series 8.0"),
            ("x" * 500, "at most 200 characters"),
        ],
    )
    def test_unparseable_strings_get_a_400_with_a_clear_message(self, client, printed, reason):
        api = client.get("/api/security/affected/", {"version": printed})
        assert api.status_code == 400
        assert reason in api.json()["error"]
        page = client.get("/security/affected/", {"version": printed})
        assert page.status_code == 400
        assert reason in page.content.decode()

    def test_a_missing_version_parameter_is_a_400(self, client):
        response = client.get("/api/security/affected/")
        assert response.status_code == 400
        assert "version" in response.json()["error"]
