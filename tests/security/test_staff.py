"""Importing the advisories file (idempotent, refused whole when the catalogue lacks a
release), load_demo's registration, and staff attaching advisories when publishing."""

import json
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django.asserts import assertContains

from core import demo
from security.advisory_file import IN_REPO_ADVISORIES, parse_advisories
from security.models import Advisory, AffectedRange
from security.services import ImportRefused, import_advisories
from tests.releases.factories import ReleaseFactory, SeriesFactory
from tests.security.factories import AdvisoryFactory, AffectedRangeFactory

pytestmark = pytest.mark.django_db


def small_file(tmp_path, advisories):
    path = tmp_path / "advisories.json"
    path.write_text(json.dumps({"advisories": advisories}))
    return path


ONE = {
    "id": "CVE-2026-44171",
    "aliases": ["GHSA-9pjh-5hhw-65v9"],
    "published": "2026-06-12",
    "summary": "mbstream accepted path components that escape the target directory.",
    "severity": {"cvss_v3_vector": "CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:H/I:H/A:H", "cvss_v3_score": 6.4,
                 "rating": "MEDIUM", "rating_source": "GHSA"},
    "component": "mbstream (mariadb-backup)",
    "affected": [{"series": "10.6", "introduced": "10.6.1", "fixed": "10.6.26", "basis": "mariadb-ghsa"}],
    "references": [], "sources": [],
}  # fmt: skip


@pytest.fixture
def releases():
    series = SeriesFactory(version="10.6")
    return {
        v: ReleaseFactory(series=series, version=v)
        for v in ("10.6.1", "10.6.25", "10.6.26", "10.6.27")
    }


def test_the_command_imports_once_and_a_second_run_changes_nothing(tmp_path, releases, capsys):
    path = small_file(tmp_path, [ONE])
    call_command("import_advisories", str(path))
    assert "1 advisories created, 0 updated, 0 unchanged; 1 ranges" in capsys.readouterr().out
    span = AffectedRange.objects.get()
    assert (span.introduced, span.fixed) == (releases["10.6.1"], releases["10.6.26"])
    before = list(Advisory.objects.values())
    call_command("import_advisories", str(path))
    assert "0 advisories created, 0 updated, 1 unchanged" in capsys.readouterr().out
    assert list(Advisory.objects.values()) == before
    changed = {**ONE, "affected": [{**ONE["affected"][0], "fixed": "10.6.27"}]}
    call_command("import_advisories", str(small_file(tmp_path, [changed])))
    assert "0 advisories created, 1 updated, 0 unchanged" in capsys.readouterr().out
    assert AffectedRange.objects.get().fixed == releases["10.6.27"]


def test_ranges_staff_added_survive_an_import(tmp_path, releases):
    call_command("import_advisories", str(small_file(tmp_path, [ONE])))
    advisory = Advisory.objects.get()
    other = ReleaseFactory(series=SeriesFactory(version="10.11"), version="10.11.17")
    AffectedRange.objects.create(advisory=advisory, series=other.series, fixed=other)
    call_command("import_advisories", str(small_file(tmp_path, [ONE])))
    assert set(advisory.ranges.values_list("series__version", flat=True)) == {"10.6", "10.11"}


@pytest.mark.parametrize(
    "entry, message",
    [
        (
            {"series": "10.6", "introduced": "0", "fixed": "10.6.99", "basis": "nvd"},
            "releases 10.6.99",
        ),
        ({"series": "10.2", "introduced": "0", "fixed": "10.2.44", "basis": "nvd"}, "series 10.2"),
    ],
)
def test_a_file_naming_a_release_the_catalogue_lacks_changes_nothing(
    tmp_path, releases, entry, message
):
    path = small_file(tmp_path, [ONE, {**ONE, "id": "CVE-2026-1000", "affected": [entry]}])
    with pytest.raises(CommandError, match=message):
        call_command("import_advisories", str(path))
    assert not Advisory.objects.exists()


@pytest.mark.parametrize("content", ["{", '{"advisories": 3}'])
def test_an_unreadable_file_is_refused(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match="Nothing was changed"):
        call_command("import_advisories", str(path))


def test_the_whole_file_needs_the_whole_catalogue():
    with pytest.raises(ImportRefused, match="import the releases first"):
        import_advisories(parse_advisories(json.loads(IN_REPO_ADVISORIES.read_text())))


def test_load_demo_runs_the_import_after_the_release_catalogue():
    order = demo.ordered()
    assert order.index("security.demo") > order.index("releases.demo")


@pytest.fixture
def staff_client(client):
    client.force_login(
        get_user_model().objects.create_superuser("publisher", "p@example.org", "pw-tests-only")
    )
    return client


def test_publishing_a_release_offers_to_attach_the_advisories_it_fixes(staff_client, releases):
    release = ReleaseFactory(
        series=releases["10.6.1"].series,
        version="10.6.28",
        release_date=date(2026, 11, 20),
        is_published=False,
    )
    open_one = AffectedRangeFactory(series=release.series, introduced=releases["10.6.1"]).advisory
    no_range = AdvisoryFactory()
    done = AffectedRangeFactory(series=release.series, fixed=releases["10.6.25"]).advisory
    review = staff_client.get(f"/admin/releases/release/{release.pk}/publish/")
    assertContains(
        review,
        f'<a href="/admin/security/advisory/attach/{release.pk}/">Attach the advisories this release fixes</a>',
        html=True,
    )
    offer = staff_client.get(f"/admin/security/advisory/attach/{release.pk}/")
    assertContains(offer, open_one.advisory_id)
    assertContains(offer, no_range.advisory_id)
    assert done.advisory_id not in offer.content.decode()  # fixed earlier in 10.6
    answer = staff_client.post(
        f"/admin/security/advisory/attach/{release.pk}/",
        {"advisories": [open_one.pk, no_range.pk]},
        follow=True,
    )
    assertContains(answer, "2 advisories now fixed in MariaDB 10.6.28.")
    assert AffectedRange.objects.get(advisory=open_one).fixed == release
    created = AffectedRange.objects.get(advisory=no_range)
    assert (created.series, created.introduced, created.fixed) == (release.series, None, release)
    review = staff_client.get(f"/admin/releases/release/{release.pk}/publish/")
    recorded = review.content.decode().split("Recorded as fixed in 10.6.28: ")[1].split(".\n")[0]
    assert set(recorded.split(", ")) == {open_one.advisory_id, no_range.advisory_id}


def test_a_fix_before_the_first_affected_release_is_refused(staff_client, releases):
    late = AffectedRangeFactory(
        series=releases["10.6.1"].series, introduced=releases["10.6.26"]
    ).advisory
    answer = staff_client.post(
        f"/admin/security/advisory/attach/{releases['10.6.25'].pk}/", {"advisories": [late.pk]}
    )
    assertContains(answer, "cannot be its fix")
    assert AffectedRange.objects.get(advisory=late).fixed is None


def test_staff_who_may_only_view_cannot_attach(client, releases):
    viewer = get_user_model().objects.create_user(
        "viewer", "v@example.org", "pw-tests-only", is_staff=True
    )
    client.force_login(viewer)
    assert (
        client.get(f"/admin/security/advisory/attach/{releases['10.6.25'].pk}/").status_code == 403
    )
