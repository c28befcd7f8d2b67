"""Every supported series is offered on the distributions the build scripts build it for
(the matrix in docs/repo-config.md), and a series page's link keeps its version."""

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from releases import demo as releases_demo
from releases.models import Series
from releases.repoconfig import demo as repoconfig_demo
from releases.repoconfig.models import Availability
from tests.releases import catalogue_facts
from tests.shared_data import loaded_for_group

pytestmark = pytest.mark.django_db

API = "/api/repo-config"


@pytest.fixture(scope="class")
def both_demos(django_db_setup, django_db_blocker):
    def load():
        releases_demo.load_catalogue()
        repoconfig_demo.load(log=lambda message: None)

    with loaded_for_group(django_db_blocker, load):
        yield


def versions_on(data, distro, release):
    distribution = next(d for d in data["distributions"] if d["slug"] == distro)
    return [
        v["version"]
        for v in next(r for r in distribution["releases"] if r["key"] == release)["versions"]
    ]


class TestOnTheDemoRepositories:
    """Tests that read the real catalogue and the demo repositories (loaded once)."""

    def test_every_supported_series_with_a_stable_release_has_repositories(
        self, client, both_demos
    ):
        today = timezone.localdate()
        supported = {
            s.version
            for s in Series.objects.with_release_facts()
            if s.has_ga and not s.is_eol(today)
        }
        assert supported == catalogue_facts.supported(today) and supported
        built = set(Availability.objects.values_list("series__version", flat=True))
        assert supported <= built
        data = client.get(f"{API}/options").json()
        # 12.x and 13.0 are built wherever 11.8 is: the newest suites and every RPM family.
        for distro, release in [("debian", "bookworm"), ("debian", "trixie"), ("ubuntu", "jammy"),
                                ("ubuntu", "resolute"), ("rhel", "10"), ("rocky", "9"), ("fedora", "43"),
                                ("opensuse", "16.0"), ("sles", "16.0")]:  # fmt: skip
            assert {"12.3", "13.0", "11.8"} & supported <= set(
                versions_on(data, distro, release)
            ), (
                distro,
                release,
            )
        # ...and not where the scripts do not build them: RHEL 10 has no 10.6.
        assert "10.6" not in versions_on(data, "rhel", "10")

    def test_a_12_3_file_points_at_the_12_3_repository(self, client, both_demos):
        response = client.get(
            API, {"distro": "ubuntu", "release": "noble", "version": "12.3", "mirror": "osuosl"}
        )
        assert response.status_code == 200
        assert (
            "URIs: https://ftp.osuosl.org/pub/mariadb/repo/12.3/ubuntu\nSuites: noble\n"
            in response.content.decode()
        )
        rpm = client.get(
            API,
            {
                "distro": "rhel",
                "release": "10",
                "version": "12.3",
                "mirror": "osuosl",
                "arch": "aarch64",
            },
        )
        assert (
            "baseurl = https://ftp.osuosl.org/pub/mariadb/yum/12.3/rhel/10/aarch64"
            in rpm.content.decode()
        )

    def test_the_link_from_a_series_page_keeps_its_version(self, client, both_demos):
        page = client.get("/download/12.3/")
        assertContains(
            page,
            '<a class="button button-secondary" href="/download/repo-config/?version=12.3">'
            "Repository configuration for 12.3</a>",
            html=True,
        )
        generator = client.get("/download/repo-config/", {"version": "12.3"})
        assertContains(generator, '<option value="12.3" selected>MariaDB 12.3</option>', html=True)
        # A series without repositories says so instead of linking to a form that cannot keep it.
        old = client.get("/download/10.4/")
        assertContains(old, "No repositories are built for MariaDB 10.4 any more")
        assert "?version=10.4" not in old.content.decode()

    def test_a_preview_series_never_had_repositories_and_says_so(self, client, both_demos):
        preview = client.get("/download/13.1/")
        assertContains(
            preview,
            '<span id="no-repositories">No repositories are built for MariaDB 13.1 yet: '
            "repositories come with a series' first stable release. Until then, use the files "
            "of its preview releases below (not for production).</span>",
            html=True,
        )
        assert "any more" not in preview.content.decode()
