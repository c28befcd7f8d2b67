"""Public read APIs at release-day speed: marked shareable for the edge (nginx keeps them,
docs/caching.md), validated with ETag/Last-Modified, with bounded queries (issue 30).

The tests read the demo content of the test process's demo database (tests/shared_data.py),
as in test_page_queries; the cache is cleared before each test.
"""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.cache import SessionStore
from django.db import connection
from django.db.models import Max, Sum
from django.http import JsonResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from benchmarks.models import Suite
from core.edge import shared_response
from feedback.trends import charts, data
from releases.models import DownloadCount, Release, ReleaseFile
from releases.repoconfig import services as repoconfig
from releases.tasks import flush_download_counts
from tests.foundation.factories import UserFactory
from tests.releases.factories import ReleaseFactory, ReleaseFileFactory

pytestmark = pytest.mark.django_db
MAX_QUERIES = 12


@pytest.fixture(scope="module")
def demo_content(demo_database):
    with demo_database.in_use():
        yield api_paths()


def newest_release_with_files():
    return (
        Release.objects.published()
        .filter(files__isnull=False)
        .select_related("series")
        .by_version()
        .first()
    )


def unused_patch_numbers(series, count):
    """Point releases of ``series`` numbered above every one the catalogue has."""
    highest = Release.objects.filter(series=series).aggregate(top=Max("version_patch"))["top"]
    return [f"{series.version}.{highest + n}" for n in range(1, count + 1)]


def api_paths():
    release = newest_release_with_files()
    series, version = release.series.version, release.version
    file = release.files.order_by("id").first()
    file_name = file.file_name
    suite = Suite.objects.published().filter(runs__isnull=False).distinct().first()
    options = repoconfig.options()
    distro = next(d for d in options["distributions"] if d["releases"])
    choice = next(r for r in distro["releases"] if r["versions"])
    selection = (
        f"distro={distro['slug']}&release={choice['key']}"
        f"&version={choice['versions'][0]['version']}&mirror={options['mirrors'][0]['id']}"
    )
    chart = charts.build(data.dashboard())[0]["id"]
    return {
        "rest-api majors": "/rest-api/mariadb/",
        "rest-api series": f"/rest-api/mariadb/{series}/",
        "rest-api series latest": f"/rest-api/mariadb/{series}/latest/",
        "rest-api release": f"/rest-api/mariadb/{version}/",
        "rest-api release, Windows only": f"/rest-api/mariadb/{version}/?os=windows",
        "rest-api checksum": f"/rest-api/mariadb/{version}/{file_name}/checksum/",
        "rest-api checksum by file id": f"/rest-api/mariadb/{file.pk}/checksum/",
        "download redirect": f"/rest-api/mariadb/{version}/{file_name}",
        "rest-api mirrors": "/rest-api/mirrors/",
        "api releases": "/api/releases/",
        "api series": f"/api/releases/{series}/",
        "api series latest": f"/api/releases/{series}/latest",
        "api release": f"/api/releases/{series}/{version}/",
        "api release, Linux only": f"/api/releases/{series}/{version}/?os=linux&arch=amd64",
        "api repo-config": f"/api/repo-config?{selection}",
        "api repo-config options": "/api/repo-config/options",
        "api feedback trend": "/api/feedback/trends/version",
        "api feedback chart": f"/api/feedback/charts/{chart}.json",
        "api feedback chart csv": f"/api/feedback/charts/{chart}.csv",
        "api feedback summary": "/api/feedback/summary",
        "api feedback snapshots": "/api/feedback/snapshots/",
        "api benchmarks json": f"/api/benchmarks/{suite.slug}.json",
        "api benchmarks csv": f"/api/benchmarks/{suite.slug}.csv",
        # Served by the page cache middleware, with the same validators.
        "news feed": "/news/feed/",
        "release feed": "/download/feed/",
        "end-of-life calendar": "/download/end-of-life.ics",
        "sitemap": "/sitemap.xml",
        "funding.csv": "/funding.csv",
    }


API_NAMES = [
    "rest-api majors", "rest-api series", "rest-api series latest", "rest-api release",
    "rest-api release, Windows only", "rest-api checksum", "rest-api checksum by file id",
    "rest-api mirrors", "api releases", "api series", "api series latest", "api release",
    "api release, Linux only", "api repo-config", "api repo-config options",
    "api feedback trend", "api feedback chart", "api feedback chart csv",
    "api feedback snapshots",
    "api benchmarks json", "api benchmarks csv",
]  # fmt: skip
FEED_NAMES = ["news feed", "release feed", "end-of-life calendar", "sitemap", "funding.csv"]
WITH_BODY = API_NAMES + FEED_NAMES


def anonymous_get(path, **headers):
    return Client().get(path, **headers)


@pytest.mark.parametrize("name", API_NAMES + FEED_NAMES)
def test_built_with_bounded_queries_and_shareable(
    demo_content, name, django_assert_max_num_queries
):
    path = demo_content[name]
    with django_assert_max_num_queries(MAX_QUERIES):
        built = anonymous_get(path)
    assert built.status_code in (200, 302), path
    assert "public" in built["Cache-Control"] and "s-maxage=60" in built["Cache-Control"]
    again = anonymous_get(path)
    assert again.status_code == built.status_code
    assert again.get("Location") == built.get("Location")


@pytest.mark.parametrize("name", WITH_BODY)
def test_conditional_requests_get_304(demo_content, name):
    """How the edge revalidates an expired copy (proxy_cache_revalidate), and clients."""
    path = demo_content[name]
    first = anonymous_get(path)
    for validator in (
        {"HTTP_IF_NONE_MATCH": first["ETag"]},
        {"HTTP_IF_MODIFIED_SINCE": first["Last-Modified"]},
    ):
        answer = anonymous_get(path, **validator)
        assert answer.status_code == 304, (path, validator)
        assert answer.content == b""
        assert answer["ETag"] == first["ETag"]
    assert anonymous_get(path, HTTP_IF_NONE_MATCH='"something else"').status_code != 304


@pytest.mark.parametrize("name", API_NAMES)
def test_api_answers_are_cdn_cacheable_and_vary_on_nothing(demo_content, name):
    answer = anonymous_get(demo_content[name])
    directives = {d.strip() for d in answer["Cache-Control"].split(",")}
    assert directives == {"public", "max-age=0", "s-maxage=60"}
    # The answer is the same for every client: it varies on nothing (not even Cookie) but
    # its encoding (gzip for the clients that accept it), and sets no cookie.
    assert answer.get("Vary", "Accept-Encoding") == "Accept-Encoding"
    assert not answer.cookies


def test_signed_in_clients_get_the_same_shareable_answer(demo_content, client):
    path = demo_content["api releases"]
    anonymous = anonymous_get(path)
    client.force_login(UserFactory(is_staff=True))
    signed_in = client.get(path)
    assert signed_in["ETag"] == anonymous["ETag"] and "public" in signed_in["Cache-Control"]
    assert signed_in.content == anonymous.content


def test_publishing_a_release_changes_the_release_apis_at_once(demo_content):
    release = newest_release_with_files()
    series = release.series
    paths = [
        f"/rest-api/mariadb/{series.version}/",
        f"/rest-api/mariadb/{series.version}/latest/",
        f"/api/releases/{series.version}/",
        f"/api/releases/{series.version}/latest",
        "/api/releases/",
    ]
    (newer,) = unused_patch_numbers(series, 1)
    draft = ReleaseFactory(
        series=series,
        version=newer,
        release_date=release.release_date + timedelta(days=90),
        is_published=False,
    )
    ReleaseFileFactory(release=draft, file_name=f"mariadb-{newer}.tar.gz")
    before = {path: anonymous_get(path) for path in paths}
    for path, answer in before.items():
        assert newer not in answer.content.decode(), path
    draft.is_published = True
    draft.save()
    for path in paths:
        answer = anonymous_get(path, HTTP_IF_NONE_MATCH=before[path]["ETag"])
        assert answer.status_code == 200, path
        assert newer in answer.content.decode(), path
    assert anonymous_get(f"/rest-api/mariadb/{newer}/mariadb-{newer}.tar.gz").status_code == 302


def _queries_for(path):
    with CaptureQueriesContext(connection) as queries:
        assert anonymous_get(path).status_code in (200, 302)
    return len(queries)


@pytest.mark.parametrize(
    "name",
    [
        "rest-api series latest",
        "rest-api release",
        "rest-api checksum",
        "api series latest",
        "api release",
    ],
)
def test_answers_about_one_release_cost_the_same_however_long_the_history(demo_content, name):
    path = demo_content[name]
    before = _queries_for(path)
    release = newest_release_with_files()
    for version in unused_patch_numbers(release.series, 40):
        ReleaseFileFactory(release=ReleaseFactory(series=release.series, version=version))
    assert Release.objects.filter(series=release.series).count() > 40
    assert _queries_for(path) == before


def test_an_answer_that_used_the_session_is_never_shared():
    calls = []

    @shared_response
    def personal(request):
        calls.append(1)
        return JsonResponse({"mine": request.session.get("name", "")})

    for _ in range(2):
        request = RequestFactory().get("/api/personal")
        request.session = SessionStore()
        answer = personal(request)
        assert not answer.has_header("ETag")
    assert len(calls) == 2


def test_live_answers_are_kept_by_the_edge_only_for_their_lifetime(settings):
    @shared_response(live=True)
    def live(request):
        return JsonResponse({"reports": 1})

    settings.API_CACHE_LIVE_SECONDS = 0
    assert "s-maxage=0" in live(RequestFactory().get("/api/live"))["Cache-Control"]
    settings.API_CACHE_LIVE_SECONDS = 5
    assert "s-maxage=5" in live(RequestFactory().get("/api/live"))["Cache-Control"]


def test_a_bad_filter_is_a_400_with_the_reason_and_is_not_stored(demo_content):
    path = demo_content["api series"] + "?os=beos"
    answers = [anonymous_get(path) for _ in range(2)]
    for answer in answers:
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("os:")
        assert "public" not in answer.get("Cache-Control", "")


def test_the_schema_documents_the_release_file_filters(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/releases/{series}/{version}/"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert set(parameters["os"]["schema"]["enum"]) == set(ReleaseFile.OS.values)
    assert "amd64" in parameters["arch"]["schema"]["enum"]
    assert set(parameters["package"]["schema"]["enum"]) == set(ReleaseFile.PackageType.values)


def test_the_feedback_summary_is_kept_for_the_live_window(
    demo_content, settings, django_assert_max_num_queries
):
    path = demo_content["api feedback summary"]
    settings.API_CACHE_LIVE_SECONDS = 5
    with django_assert_max_num_queries(MAX_QUERIES):
        built = anonymous_get(path)
    assert built.status_code == 200 and "s-maxage=5" in built["Cache-Control"]
    assert anonymous_get(path, HTTP_IF_NONE_MATCH=built["ETag"]).status_code == 304


def test_the_download_redirect_is_counted_every_time_so_never_stored(
    demo_content, django_assert_max_num_queries, django_assert_num_queries
):
    """Each download by name is counted (releases.downloads), so no copy of the redirect
    may answer for it: not the edge, not a CDN. Its lookups are kept under the
    content generation: once warm it asks the database nothing."""
    path = demo_content["download redirect"]
    with django_assert_max_num_queries(3):
        first = anonymous_get(path)
    for _ in range(2):
        with django_assert_num_queries(0):
            response = anonymous_get(path)
        assert response.status_code == 302 and response["Location"] == first["Location"]
        assert "no-store" in response["Cache-Control"]
        assert "public" not in response["Cache-Control"]
    assert flush_download_counts.delay().get() == {"moved": 3}
    assert DownloadCount.objects.aggregate(total=Sum("count"))["total"] == 3
