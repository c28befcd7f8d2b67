"""The pure renderer: golden files, and the live tool's two real outputs line for line."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from releases.repoconfig.render import RenderError, RepoChoice, render

GOLDEN = Path(__file__).parent / "golden"
LIVE = Path(__file__).resolve().parents[2] / "fixtures" / "repo-config"
CREATED = datetime(2026, 11, 22, 9, 30, tzinfo=UTC)
SITE = "https://foundation.example/download/repo-config/"

UBUNTU_JAMMY_1011 = RepoChoice(
    family="apt",
    repo_path="ubuntu",
    header_label="",
    suite="jammy",
    series="10.11",
    series_label="10.11",
    mirror_base="https://ftp.osuosl.org/pub/mariadb/",
    debug_component=True,
)
RHEL9_114 = RepoChoice(
    family="yum",
    repo_path="rhel",
    header_label="RedHatEnterpriseLinux",
    suite="9",
    series="11.4",
    series_label="11.4",
    mirror_base="https://mirror.bouwhuis.network/mariadb/",
)
CASES = {
    "ubuntu-jammy-10.11.sources": (UBUNTU_JAMMY_1011, "deb822"),
    "ubuntu-jammy-10.11.list": (UBUNTU_JAMMY_1011, "list"),
    "debian-bookworm-11.8-arm64.sources": (
        RepoChoice(family="apt", repo_path="debian", header_label="", suite="bookworm",
                   series="11.8", series_label="11.8",
                   mirror_base="https://ftp.agdsn.de/pub/mirrors/mariadb/", arch="arm64"),
        "deb822",
    ),
    "rhel-9-11.4.repo": (RHEL9_114, "repo"),
    "rhel-8-10.11-aarch64.repo": (
        RepoChoice(family="yum", repo_path="rhel", header_label="RedHatEnterpriseLinux", suite="8",
                   series="10.11", series_label="10.11", module_hotfixes=True, arch="aarch64",
                   mirror_base="https://mirror.bouwhuis.network/mariadb/"),
        "repo",
    ),
    "fedora-42-11.4.repo": (
        RepoChoice(family="yum", repo_path="fedora", header_label="Fedora", suite="42",
                   series="11.4", series_label="11.4", mirror_base="https://mirrors.gigenet.com/mariadb/"),
        "repo",
    ),
    "opensuse-15.6-11.8.repo": (
        RepoChoice(family="zypper", repo_path="opensuse", header_label="openSUSE", suite="15.6",
                   series="11.8", series_label="11.8", mirror_base="https://ftp.osuosl.org/pub/mariadb/"),
        "repo",
    ),
}  # fmt: skip


def body_lines(text):
    """Everything after the creation timestamp and the site URL comment."""
    return text.splitlines()[2:]


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_files(name):
    choice, fmt = CASES[name]
    rendered = render(choice, fmt=fmt, created=CREATED, site_url=SITE)
    assert rendered.content == (GOLDEN / name).read_text()


@pytest.mark.parametrize(
    ("fixture", "choice", "fmt"),
    [
        ("ubuntu-jammy-10.11-osuosl.deb822.txt", UBUNTU_JAMMY_1011, "deb822"),
        ("rhel-9-11.4-bouwhuis.repo.txt", RHEL9_114, "repo"),
    ],
)
def test_matches_the_live_tool_line_for_line(fixture, choice, fmt):
    live = (LIVE / fixture).read_text()
    ours = render(choice, fmt=fmt, created=CREATED, site_url=SITE).content
    assert body_lines(ours) == body_lines(live)
    # The first line differs only in its timestamp.
    assert (
        ours.splitlines()[0][: -len("2026-11-22 09:30 UTC")]
        == live.splitlines()[0][: -len("2024-01-06 00:18 UTC")]
    )


def test_the_header_carries_the_injected_clock():
    rendered = render(RHEL9_114, created=CREATED, site_url=SITE)
    assert rendered.content.splitlines()[0].endswith("created 2026-11-22 09:30 UTC")
    assert rendered.content.splitlines()[1] == f"# {SITE}"


def test_fallback_lines_are_derived_from_the_active_values():
    for choice, fmt in CASES.values():
        lines = render(choice, fmt=fmt, created=CREATED, site_url=SITE).content.splitlines()
        if choice.family == "apt" and fmt == "deb822":
            fallback = next(line for line in lines if line.startswith("# URIs: "))
            active = next(line for line in lines if line.startswith("URIs: "))
            assert fallback.split("deb.mariadb.org/")[1] == active.split("/repo/")[1]
        elif choice.family != "apt":
            fallback = next(line for line in lines if line.startswith("# baseurl = "))
            active = next(line for line in lines if line.startswith("baseurl = "))
            path = f"{choice.series}/{choice.repo_path}/"
            assert fallback.split("rpm.mariadb.org/")[1] == path + "$releasever/$basearch"
            assert active.split("/yum/")[1] == path + (
                f"{choice.suite}/{choice.arch}" if choice.arch else "$releasever/$basearch"
            )


def test_a_chosen_architecture_keeps_the_dynamic_mirror_line_general():
    """Issue 49: mariadb.org's tool, asked for RHEL 9 aarch64, writes the chosen mirror's
    baseurl with the release and architecture but keeps the commented rpm.mariadb.org line
    general (/work/shared/reference/repo-config.md); ours wrote both concrete."""
    choice = RepoChoice(family="yum", repo_path="rhel", header_label="RedHatEnterpriseLinux",
                        suite="9", series="11.4", series_label="11.4", arch="aarch64",
                        mirror_base="https://mirror.bouwhuis.network/mariadb/")  # fmt: skip
    live = (LIVE / "rhel-9-11.4-bouwhuis.repo.txt").read_text().splitlines()
    ours = render(choice, created=CREATED, site_url=SITE).content.splitlines()
    expected = [
        line.replace("yum/11.4/rhel/$releasever/$basearch", "yum/11.4/rhel/9/aarch64")
        for line in live
    ]
    assert ours[2:] == expected[2:]
    assert "# baseurl = https://rpm.mariadb.org/11.4/rhel/$releasever/$basearch" in ours
    assert "baseurl = https://mirror.bouwhuis.network/mariadb/yum/11.4/rhel/9/aarch64" in ours


def test_never_apt_key():
    for choice, fmt in CASES.values():
        rendered = render(choice, fmt=fmt, created=CREATED, site_url=SITE)
        text = rendered.content + "\n".join(rendered.setup_commands)
        assert "apt-key" not in text
        if choice.family == "apt":
            assert "/etc/apt/keyrings/mariadb-keyring.pgp" in text


def test_refusals():
    with pytest.raises(RenderError, match="format 'list' is not offered for yum"):
        render(RHEL9_114, fmt="list", created=CREATED, site_url=SITE)
    with pytest.raises(RenderError, match="https"):
        RepoChoice(
            family="apt",
            repo_path="debian",
            header_label="",
            suite="bookworm",
            series="11.8",
            series_label="11.8",
            mirror_base="http://insecure.example/",
        )
