import configparser
import subprocess
import tempfile
from datetime import date
from email.parser import Parser
from pathlib import Path

import pytest
from django.conf import settings

from releases.repoconfig import services
from releases.repoconfig.models import DistributionRelease

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded_for_module")]
API = "/api/repo-config"


def valid_combinations():
    for distribution in services.options()["distributions"]:
        for release in distribution["releases"]:
            for version in release["versions"]:
                for arch in ["", *version["architectures"]]:
                    yield distribution, release["key"], version["version"], arch


def parse_deb822(text):
    stanza = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return dict(Parser().parsestr(stanza).items())


def test_the_api_returns_the_exact_file_as_text(client):
    response = client.get(
        API, {"distro": "ubuntu", "release": "jammy", "version": "10.11", "mirror": "osuosl"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "s-maxage=60" in response["Cache-Control"] and response.has_header("ETag")
    text = response.content.decode()
    assert "URIs: https://ftp.osuosl.org/pub/mariadb/repo/10.11/ubuntu\nSuites: jammy\n" in text


def test_every_valid_combination_renders_and_parses(client):
    count = 0
    for distribution, release, version, arch in valid_combinations():
        formats = ["deb822", "list"] if distribution["family"] == "apt" else ["repo"]
        for fmt in formats:
            params = {
                "distro": distribution["slug"],
                "release": release,
                "version": version,
                "mirror": "agdsn",
                "arch": arch,
                "format": fmt,
            }
            response = client.get(API, params)
            assert response.status_code == 200, (params, response.content)
            text = response.content.decode()
            if fmt == "deb822":
                fields = parse_deb822(text)
                assert fields["Types"] == "deb"
                assert fields["URIs"].endswith(
                    f"/repo/{version}/"
                    + ("debian" if distribution["slug"] == "debian" else "ubuntu")
                )
                assert fields["Signed-By"] == "/etc/apt/keyrings/mariadb-keyring.pgp"
                assert ("Architectures" in fields) == bool(arch)
            elif fmt == "list":
                deb_lines = [line for line in text.splitlines() if line.startswith("deb ")]
                assert len(deb_lines) == 1 and f"/repo/{version}/" in deb_lines[0]
            else:
                parser = configparser.ConfigParser(interpolation=None)
                parser.read_string(text)
                section = parser["mariadb"]
                assert section["gpgcheck"] == "1"
                assert f"/yum/{version}/" in section["baseurl"]
                assert section["baseurl"].endswith(f"/{arch}" if arch else "/$basearch")
            count += 1
    assert count > 200  # the seeded matrix is covered, not a handful of cases


def test_el8_and_derivatives_get_module_hotfixes_and_el9_does_not(client):
    for distro in ["rhel", "rocky", "almalinux"]:
        text = client.get(
            API, {"distro": distro, "release": "8", "version": "11.4", "mirror": "osuosl"}
        ).content
        assert b"module_hotfixes = 1" in text
    text = client.get(
        API, {"distro": "rhel", "release": "9", "version": "11.4", "mirror": "osuosl"}
    ).content
    assert b"module_hotfixes" not in text


def test_mint_uses_its_ubuntu_base(client):
    text = client.get(
        API, {"distro": "mint", "release": "wilma", "version": "11.8", "mirror": "osuosl"}
    ).content
    assert b"URIs: https://ftp.osuosl.org/pub/mariadb/repo/11.8/ubuntu\nSuites: noble\n" in text


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        (
            {"distro": "debian", "release": "trixie", "version": "10.11", "mirror": "osuosl"},
            "is not built for Debian",
        ),
        (
            {
                "distro": "ubuntu",
                "release": "jammy",
                "version": "10.11",
                "mirror": "osuosl",
                "arch": "i386",
            },
            "not built for i386",
        ),
        (
            {"distro": "gentoo", "release": "x", "version": "10.11", "mirror": "osuosl"},
            "unknown distribution release",
        ),
        (
            {"distro": "ubuntu", "release": "jammy", "version": "10.11", "mirror": "nowhere"},
            "unknown or inactive mirror",
        ),
        (
            {
                "distro": "rhel",
                "release": "9",
                "version": "11.4",
                "mirror": "osuosl",
                "format": "list",
            },
            "not offered for yum",
        ),
        ({"distro": "ubuntu", "release": "jammy"}, "required"),
    ],
)
def test_unsupported_combinations_get_400_with_a_reason(client, params, reason):
    response = client.get(API, params)
    assert response.status_code == 400
    text = response.content.decode()
    assert reason in text
    assert text.count("\n") == 1


def test_options_list_only_valid_choices(client):
    data = client.get("/api/repo-config/options").json()
    debian = next(d for d in data["distributions"] if d["slug"] == "debian")
    trixie = next(r for r in debian["releases"] if r["key"] == "trixie")
    assert [v["version"] for v in trixie["versions"]] == ["13.0", "12.3", "11.8"]
    assert {m["id"] for m in data["mirrors"]} >= {"osuosl", "bouwhuis"}


def test_eol_warnings():
    generated = services.generate(
        distro="debian",
        release="bullseye",
        version="10.6",
        mirror="osuosl",
        today=date(2026, 11, 22),
    )
    assert any(
        "MariaDB 10.6 reached its end of life on 06 July 2026" in w for w in generated.warnings
    )
    generated = services.generate(
        distro="ubuntu", release="plucky", version="11.8", mirror="osuosl", today=date(2026, 11, 22)
    )
    assert any("25.04" in w and "end of life" in w for w in generated.warnings)


def test_the_real_apt_accepts_a_generated_sources_file_and_refuses_a_broken_one(client):
    text = client.get(
        API, {"distro": "ubuntu", "release": "jammy", "version": "10.11", "mirror": "osuosl"}
    ).content
    ok = run_apt(text)
    assert ok.returncode == 0, ok.stderr
    assert (
        "'https://ftp.osuosl.org/pub/mariadb/repo/10.11/ubuntu/dists/jammy/InRelease'" in ok.stdout
    )
    broken = run_apt(text.replace(b"Suites: jammy\n", b""))
    assert broken.returncode != 0
    assert "Malformed entry" in broken.stderr


def run_apt(content: bytes):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for sub in ["parts", "lists/partial", "cache"]:
            (root / sub).mkdir(parents=True)
        (root / "parts" / "mariadb.sources").write_bytes(content)
        return subprocess.run(
            [
                "apt-get",
                "-o",
                "Dir::Etc::sourcelist=/dev/null",
                "-o",
                f"Dir::Etc::sourceparts={root}/parts",
                "-o",
                f"Dir::State::Lists={root}/lists",
                "-o",
                f"Dir::Cache={root}/cache",
                "update",
                "--print-uris",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )


def test_generator_page_without_javascript(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        response = client.get(
            "/download/repo-config/",
            {"distro": "rocky", "release": "9", "version": "11.4", "mirror": "bouwhuis"},
        )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="config-file"' in html and 'data-copy-target="config-file"' in html
    assert "/etc/yum.repos.d/MariaDB.repo" in html
    assert "sudo dnf install MariaDB-server MariaDB-client" in html
    assert "download=1" in html


def test_generator_page_explains_a_bad_choice(client):
    response = client.get(
        "/download/repo-config/",
        {"distro": "debian", "release": "trixie", "version": "10.11", "mirror": "osuosl"},
    )
    assert response.status_code == 400
    assert "is not built for Debian" in response.content.decode()


def test_api_query_count_is_bounded(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        client.get(API, {"distro": "mint", "release": "xia", "version": "11.4", "mirror": "osuosl"})
    assert DistributionRelease.objects.count() > 20


def test_options_list_the_series_newest_first_by_number(client):
    """As text 10.6 sorts above 10.11; every release's list must put 10.11 first."""
    data = client.get("/api/repo-config/options").json()
    lists = [[v["version"] for v in release["versions"]]
             for distribution in data["distributions"] for release in distribution["releases"]]  # fmt: skip
    assert any({"10.6", "10.11"} <= set(versions) for versions in lists)
    for versions in lists:
        assert versions == sorted(
            versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True
        )


def test_the_cache_headers_are_the_ones_the_guide_states(client):
    guide = (settings.BASE_DIR / "docs" / "repo-config.md").read_text()
    query = {"distro": "debian", "release": "bookworm", "version": "11.8", "mirror": "osuosl"}
    for response in [client.get(API, query), client.get(API + "/options")]:
        assert response.status_code == 200
        assert f"`Cache-Control: {response['Cache-Control']}`" in guide
    assert "5 minutes" not in guide
