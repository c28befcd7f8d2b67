from datetime import date

import feedparser
import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foundation.models import NewsPost
from releases.models import Release, Series
from releases.repoconfig.models import Mirror
from releases.services import publishing
from releases.versions import parse_release_version, validate_series_version
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory, SeriesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def mirrors():
    Mirror.objects.create(
        mirror_id="osuosl",
        name="OSUOSL",
        country="US",
        base_url="https://ftp.osuosl.org/pub/mariadb/",
    )


def test_versions_are_ordered_by_meaning_not_text():
    series = SeriesFactory(version="10.0")
    for version in ["10.0.9", "10.0.10", "10.0.3", "10.0.11"]:
        ReleaseFactory(series=series, version=version)
    assert list(Release.objects.by_version().values_list("version", flat=True)) == [
        "10.0.11",
        "10.0.10",
        "10.0.9",
        "10.0.3",
    ]
    assert Release.objects.latest_in("10.0").version == "10.0.11"


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a busy 2-core machine
@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99), st.integers(0, 999)), min_size=1))
def test_parsed_versions_sort_like_tuples(triples):
    versions = [f"{a}.{b}.{c}" for a, b, c in triples]
    assert sorted(versions, key=parse_release_version) == [
        f"{a}.{b}.{c}" for a, b, c in sorted(triples)
    ]


@pytest.mark.parametrize("bad", ["10.11", "10.11.x", "v10.11.2", "10.11.2-beta", ""])
def test_malformed_release_versions_are_refused(bad):
    with pytest.raises(ValidationError):
        parse_release_version(bad)


def test_series_versions():
    for good in ["10.11", "11.rolling", "12.rc"]:
        validate_series_version(good)
    with pytest.raises(ValidationError):
        validate_series_version("eleven")


def test_a_release_must_belong_to_its_series():
    release = Release(
        series=SeriesFactory(version="10.11"), version="11.4.2", release_date=date.today()
    )
    with pytest.raises(ValidationError, match="does not belong"):
        release.full_clean()


def test_publishing_announces_once_and_updates_on_republish():
    release = ReleaseFactory(
        series=SeriesFactory(version="10.0", status="eol"),
        version="10.0.3",
        maturity="alpha",
        is_published=False,
    )
    publishing.publish_release(release)
    publishing.publish_release(release)
    post = NewsPost.objects.get()
    assert release.announcement == post
    assert post.title == "MariaDB 10.0.3 alpha released"
    assert "MariaDB 10.0.3 is an alpha release of MariaDB 10.0" in post.body
    assert "Do not use alpha releases on production systems" in post.body
    assert "/download/repo-config/?version=10.0" in post.body
    assert post.categories.get().name == "Releases"


def test_release_page_has_everything_the_seed_shows(client, mirrors, django_assert_max_num_queries):
    release = ReleaseFactory(
        series=SeriesFactory(version="10.0", status="eol"), version="10.0.3", maturity="alpha"
    )
    file = ReleaseFileFactory(release=release)
    with django_assert_max_num_queries(8):
        response = client.get(release.get_absolute_url())
    html = response.content.decode()
    assert "Download MariaDB 10.0.3" in html
    assert "Do not use alpha releases on production systems" in html
    assert "End of life" in html
    assert file.sha256 in html
    # Downloads go through the counting redirect to the chosen mirror.
    assert f"/rest-api/mariadb/{release.version}/{file.file_name}?mirror=osuosl" in html
    assert "/download/repo-config/?version=10.0" in html
    assert "feedback=ON" in html


def test_download_series_and_home_query_counts_are_bounded(
    client, mirrors, django_assert_max_num_queries
):
    for n in range(6):
        ReleaseFileFactory(release=ReleaseFactory(version=f"11.4.{n + 2}"))
    for url in [
        "/download/",
        "/download/11.4/",
        "/",
        "/api/releases/",
        "/api/releases/11.4/",
        "/api/releases/11.4/latest",
        "/download/feed/",
    ]:
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200, url


def test_download_page_filters_files(client, mirrors):
    release = ReleaseFactory(version="11.4.5")
    ReleaseFileFactory(release=release)
    ReleaseFileFactory(
        release=release,
        os="windows",
        architecture="x86_64",
        package_type="msi",
        file_name="mariadb-11.4.5-winx64.msi",
    )
    html = client.get("/download/", {"series": "11.4", "os": "windows"}).content.decode()
    assert "mariadb-11.4.5-winx64.msi" in html
    assert "mariadb-11.4.5.tar.gz" not in html


def test_api_shape_and_latest(client):
    series = SeriesFactory(version="11.4")
    ReleaseFactory(series=series, version="11.4.9")
    ReleaseFileFactory(release=ReleaseFactory(series=series, version="11.4.10"))
    ReleaseFactory(series=series, version="11.4.11", is_published=False)
    listing = client.get("/api/releases/").json()
    assert listing[0]["version"] == "11.4"
    assert {"status", "support_type", "eol_date", "releases"} <= set(listing[0])
    detail = client.get("/api/releases/11.4/")
    assert set(detail["Cache-Control"].split(", ")) == {"public", "max-age=0", "s-maxage=60"}
    assert detail.has_header("ETag")
    files = detail.json()["releases"][0]["files"]
    assert {"sha256", "sha512", "path", "size"} <= set(files[0])
    latest = client.get("/api/releases/11.4/latest").json()
    assert latest["version"] == "11.4.10"  # highest published, not the unpublished 11.4.11
    assert client.get("/api/releases/9.9/latest").status_code == 404
    etag = detail["ETag"]
    assert client.get("/api/releases/11.4/", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_openapi_schema_documents_the_release_api(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ["/api/releases/", "/api/releases/{series}/", "/api/releases/{series}/latest"]:
        assert path in schema


def test_atom_feed_is_valid(client):
    ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.2")
    feed = feedparser.parse(client.get("/download/feed/").content)
    assert not feed.bozo
    assert feed.version == "atom10"
    assert feed.entries[0].title.startswith("MariaDB 11.4.2")


def test_demo_content_is_real_releases():
    from releases import demo

    demo.load(log=lambda message: None)
    alpha = Release.objects.get(version="10.0.3")
    assert alpha.maturity == "alpha"
    assert Series.objects.get(version="10.11").eol_date == date(2028, 2, 16)
    assert NewsPost.objects.filter(slug="mariadb-10-0-3-released").exists()


def test_api_per_release_endpoint_and_file_filters(client, django_assert_max_num_queries):
    release = ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.10")
    ReleaseFileFactory(release=release)
    ReleaseFileFactory(release=release, os="windows", architecture="x86_64", package_type="msi",
                       file_name="mariadb-11.4.10-winx64.msi", path="mariadb-11.4.10/winx64-packages/mariadb-11.4.10-winx64.msi")  # fmt: skip
    with django_assert_max_num_queries(4):
        body = client.get("/api/releases/11.4/11.4.10/").json()
    assert body["version"] == "11.4.10"
    assert len(body["files"]) == 2
    windows = client.get("/api/releases/11.4/11.4.10/", {"os": "windows", "arch": "amd64"}).json()
    assert [f["file_name"] for f in windows["files"]] == ["mariadb-11.4.10-winx64.msi"]
    tarballs = client.get("/api/releases/11.4/", {"package": "tar.gz"}).json()
    assert [f["file_name"] for f in tarballs["releases"][0]["files"]] == ["mariadb-11.4.10.tar.gz"]
    assert client.get("/api/releases/11.4/latest", {"os": "linux"}).json()["files"] == []
    bad = client.get("/api/releases/11.4/11.4.10/", {"os": "beos"})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("os:")
    assert client.get("/api/releases/11.4/latest", {"arch": "x" * 50}).status_code == 400
    assert client.get("/api/releases/11.4/11.4.99/").status_code == 404
    assert client.get("/api/releases/10.11/11.4.10/").status_code == 404


def test_api_architecture_filter_keeps_files_built_for_no_architecture(client):
    release = ReleaseFactory(series=SeriesFactory(version="11.4"), version="11.4.10")
    source = ReleaseFileFactory(release=release)
    ReleaseFileFactory(release=release, os="windows", architecture="x86_64", package_type="msi",
                       file_name="mariadb-11.4.10-winx64.msi", path="mariadb-11.4.10/winx64-packages/mariadb-11.4.10-winx64.msi")  # fmt: skip
    body = client.get("/api/releases/11.4/11.4.10/", {"os": "source", "arch": "amd64"}).json()
    assert [f["file_name"] for f in body["files"]] == [source.file_name]
    aarch64 = client.get("/api/releases/11.4/11.4.10/", {"arch": "aarch64"}).json()
    assert [f["file_name"] for f in aarch64["files"]] == [source.file_name]
