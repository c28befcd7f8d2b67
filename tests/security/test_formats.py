"""OSV records (valid against the OSV schema, enumerating the affected tags), the ZIP of all
of them, the JSON API with its filters and the OpenAPI schema that documents them."""

import io
import json
import zipfile
from datetime import UTC
from pathlib import Path

import jsonschema
import pytest
import yaml
from django.utils import timezone

from releases.models import Release
from security.advisory_file import IN_REPO_ADVISORIES, read_file
from security.models import Advisory
from security.services import attach_fix, import_advisories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("advisories")]
OSV = Path(__file__).resolve().parent.parent / "fixtures" / "osv"
SCHEMA = json.loads((OSV / "osv-schema.json").read_text())
EXAMPLE = json.loads((OSV / "osv-example.json").read_text())


class TestFormats:
    def test_every_osv_record_in_the_zip_is_valid_and_served_alone_too(self, client):
        response = client.get("/security/osv/all.zip")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/zip"
        archive = zipfile.ZipFile(io.BytesIO(response.content))
        names = archive.namelist()
        assert len(names) == Advisory.objects.count() == 100
        validator = jsonschema.Draft202012Validator(SCHEMA)
        for name in names:
            record = json.loads(archive.read(name))
            errors = sorted(validator.iter_errors(record), key=str)
            assert not errors, (name, [e.message for e in errors])
            assert name == f"{record['id']}.json"
        alone = client.get("/security/osv/CVE-2026-47064.json")
        assert alone.status_code == 200
        assert alone.json() == json.loads(archive.read("CVE-2026-47064.json"))

    def test_a_record_enumerates_the_affected_tags_as_the_reference_example_does(self, client):
        record = client.get("/security/osv/CVE-2026-44171.json").json()
        affected = record["affected"][0]
        assert affected["versions"] == EXAMPLE["affected"][0]["versions"]
        assert affected["database_specific"]["series_ranges"] == [
            {"series": r["series"], "introduced": r["introduced"], "fixed": r["fixed"]}
            for r in EXAMPLE["affected"][0]["database_specific"]["series_ranges"]
        ]
        assert record["aliases"] == EXAMPLE["aliases"]
        assert record["severity"] == EXAMPLE["severity"]
        assert record["database_specific"]["cwe_ids"] == ["CWE-22"]
        assert {
            "type": "ADVISORY",
            "url": "https://github.com/MariaDB/server/security/advisories/GHSA-9pjh-5hhw-65v9",
        } in record["references"]

    def test_introduced_0_enumerates_the_series_from_its_first_release(self, client):
        record = client.get("/security/osv/CVE-2026-47064.json").json()
        tags = record["affected"][0]["versions"]
        first = (
            Release.objects.published()
            .filter(series__version="10.6")
            .order_by("version_patch")
            .first()
        )
        assert f"mariadb-{first.version}" in tags
        assert "mariadb-10.6.25" in tags and "mariadb-10.6.26" not in tags
        ranges = record["affected"][0]["database_specific"]["series_ranges"]
        assert {"series": "10.6", "introduced": "0", "fixed": "10.6.26"} in ranges

    def test_the_api_lists_the_advisories_with_filters(self, client):
        everything = client.get("/api/security/").json()
        assert len(everything) == 100
        assert everything[0]["published"] >= everything[-1]["published"]
        first = everything[0]
        assert set(first) >= {
            "id",
            "severity",
            "affected",
            "summary",
            "component",
            "references",
            "osv",
        }
        high_106 = client.get("/api/security/", {"series": "10.6", "severity": "HIGH"}).json()
        expected = set(
            Advisory.objects.filter(ranges__series__version="10.6", rating="HIGH").values_list(
                "advisory_id", flat=True
            )
        )
        assert {a["id"] for a in high_106} == expected and expected
        assert all(any(r["series"] == "10.6" for r in a["affected"]) for a in high_106)
        assert [a["id"] for a in client.get("/api/security/", {"q": "CVE-2026-44171"}).json()] == [
            "CVE-2026-44171"
        ]
        assert {
            a["published"][:4] for a in client.get("/api/security/", {"year": 2022}).json()
        } == {"2022"}

    @pytest.mark.parametrize(
        "query", [{"severity": "SEVERE"}, {"series": "99.9"}, {"year": "soon"}]
    )
    def test_a_bad_filter_is_a_400_naming_it(self, client, query):
        response = client.get("/api/security/", query)
        assert response.status_code == 400
        assert response.json()["error"].startswith(next(iter(query)))

    def test_the_openapi_schema_documents_the_security_api_and_formats(self, client):
        schema = yaml.safe_load(client.get("/api/schema/").content)
        paths = schema["paths"]
        listing = paths["/api/security/"]["get"]
        assert {p["name"] for p in listing["parameters"]} == {"series", "severity", "year", "q"}
        affected = paths["/api/security/affected/"]["get"]
        assert [p["name"] for p in affected["parameters"]] == ["version"]
        assert "400" in affected["responses"]
        assert {
            "/security/osv/{advisory_id}.json",
            "/security/osv/all.zip",
            "/security/feed/",
        } <= set(paths)
        answer = schema["components"]["schemas"]["Affected"]["properties"]
        assert {"version", "series", "advisories", "upgrade_to"} <= set(answer)

    def test_the_feed_links_each_advisory(self, client):
        body = client.get("/security/feed/").content.decode()
        assert 'href="http://testserver/security/CVE-' in body or "/security/CVE-" in body


def semver_affected(ranges, version):
    """An OSV SEMVER evaluator as a scanner runs it (versions MAJOR.MINOR.PATCH only): in a
    range when at or after an introduced event and before its fixed (or at or before its
    last_affected)."""
    key = tuple(int(p) for p in version.split("."))
    for item in ranges:
        assert item["type"] == "SEMVER"
        start = end = None
        for event in item["events"]:
            ((kind, value),) = event.items()
            value_key = tuple(int(p) for p in value.split("."))
            if kind == "introduced":
                start = value_key
            elif kind == "fixed":
                end = ("fixed", value_key)
            elif kind == "last_affected":
                end = ("last", value_key)
        if start is None or key < start:
            continue
        if (
            end is None
            or (end[0] == "fixed" and key < end[1])
            or (end[0] == "last" and key <= end[1])
        ):
            return True
    return False


class TestSemverRanges:
    def test_the_ranges_say_exactly_what_the_listed_versions_say(self, client):
        """Issue 60: OSV records carried only `versions`; a scanner evaluating `ranges`
        finds every listed tag affected and every other published release not."""
        archive = zipfile.ZipFile(io.BytesIO(client.get("/security/osv/all.zip").content))
        releases = list(Release.objects.published().values_list("version", flat=True))
        for name in archive.namelist():
            record = json.loads(archive.read(name))
            (affected,) = record["affected"]
            listed = {tag.removeprefix("mariadb-") for tag in affected["versions"]}
            assert affected["ranges"], name
            by_ranges = {v for v in releases if semver_affected(affected["ranges"], v)}
            assert by_ranges == listed, name

    def test_a_version_no_list_names_is_evaluated_by_its_series_range(self, client):
        ranges = client.get("/security/osv/CVE-2026-47064.json").json()["affected"][0]["ranges"]
        ten_six = next(r for r in ranges if r["database_specific"]["series"] == "10.6")
        assert ten_six["events"] == [{"introduced": "10.6.0"}, {"fixed": "10.6.26"}]
        assert semver_affected(ranges, "10.6.25") and not semver_affected(ranges, "10.6.27")
        # a series' open range ends at its newest release, never running into the next
        for item in ranges:
            ((_, end),) = item["events"][-1].items()
            assert end.startswith(item["database_specific"]["series"] + ".")

    def test_modified_is_the_advisorys_own_last_change_not_the_load_time(
        self, client, admin_client
    ):
        compiled = json.loads(IN_REPO_ADVISORIES.read_text())["compiled"]
        record = client.get("/security/osv/CVE-2026-44171.json").json()
        assert record["modified"] == f"{compiled}T00:00:00Z"
        # loading again changes nothing, so nothing is modified
        import_advisories(read_file(IN_REPO_ADVISORIES))
        assert (
            client.get("/security/osv/CVE-2026-44171.json").json()["modified"] == record["modified"]
        )
        # a staff change is a change
        advisory = Advisory.objects.get(advisory_id="CVE-2026-44171")
        before = timezone.now()
        attach_fix(Release.objects.get(version="13.0.2"), [advisory])
        changed = client.get("/security/osv/CVE-2026-44171.json").json()["modified"]
        assert changed >= before.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") > record["modified"]
