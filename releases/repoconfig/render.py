"""Render repository configuration files (pure: no database, the clock is passed in).

Every URL in a file, the active one and the commented dynamic-mirror fallback, is
built by one function from the same values, so the two can never disagree (the fallback
keeps $releasever/$basearch where an architecture is chosen, as mariadb.org's tool does).
"""

from dataclasses import dataclass
from datetime import datetime

APT_FALLBACK = "https://deb.mariadb.org/"
RPM_FALLBACK = "https://rpm.mariadb.org/"
APT_KEYRING = "/etc/apt/keyrings/mariadb-keyring.pgp"
APT_KEY_URL = "https://mariadb.org/mariadb_release_signing_key.pgp"
MIRROR_NOTE = (
    "# {host} is a dynamic mirror if your preferred mirror goes offline. "
    "See https://mariadb.org/mirrorbits/ for details."
)
FAMILIES = {"apt", "yum", "zypper"}
FORMATS = {"apt": ("deb822", "list"), "yum": ("repo",), "zypper": ("repo",)}


class RenderError(ValueError):
    """The choice cannot be rendered; the message is a one-line reason."""


@dataclass(frozen=True)
class RepoChoice:
    family: str  # apt, yum or zypper
    repo_path: str  # debian, ubuntu, rhel, fedora, opensuse, sles
    header_label: str  # "" for apt; e.g. RedHatEnterpriseLinux, Fedora, openSUSE, SLES
    suite: str  # apt: the codename; rpm: the $releasever value, e.g. "9" or "15.6"
    series: str  # repository token, e.g. "10.11" or "11.rolling"
    series_label: str  # as shown in the header, e.g. "10.11" or "11 Rolling"
    mirror_base: str  # full base URL ending in "/"
    arch: str = ""  # empty: every architecture
    module_hotfixes: bool = False  # EL8: let dnf see packages that AppStream modules hide
    debug_component: bool = False  # Ubuntu repositories also carry main/debug

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise RenderError(f"unknown package family {self.family!r}")
        if not self.mirror_base.startswith("https://") or not self.mirror_base.endswith("/"):
            raise RenderError("the mirror base URL must be https and end with a slash")


@dataclass(frozen=True)
class RenderedConfig:
    format: str
    path: str  # where the file goes on the user's machine
    content: str
    setup_commands: tuple[str, ...]  # before the file: the signing key
    install_commands: tuple[str, ...]  # after the file

    @property
    def filename(self):
        return self.path.rsplit("/", 1)[-1]


def apt_uri(base: str, choice: RepoChoice, *, mirror: bool) -> str:
    prefix = f"{base}repo/" if mirror else base
    return f"{prefix}{choice.series}/{choice.repo_path}"


def rpm_baseurl(base: str, choice: RepoChoice, *, mirror: bool) -> str:
    """The chosen mirror's baseurl names the release and architecture when one is chosen
    (``…/11.4/rhel/9/aarch64``); the commented dynamic-mirror line stays general
    (``…/11.4/rhel/$releasever/$basearch``), as mariadb.org's tool writes them."""
    prefix = f"{base}yum/" if mirror else base
    concrete = mirror and choice.arch
    arch = choice.arch if concrete else "$basearch"
    releasever = choice.suite if concrete else "$releasever"
    return f"{prefix}{choice.series}/{choice.repo_path}/{releasever}/{arch}"


def rpm_gpgkey(base: str, *, mirror: bool) -> str:
    return f"{base}yum/RPM-GPG-KEY-MariaDB" if mirror else f"{base}RPM-GPG-KEY-MariaDB"


def _header(choice: RepoChoice, created: datetime, site_url: str) -> list[str]:
    label = f" {choice.header_label}" if choice.header_label else ""
    stamp = created.strftime("%Y-%m-%d %H:%M")
    return [
        f"# MariaDB {choice.series_label}{label} repository list - created {stamp} UTC",
        f"# {site_url}",
    ]


def render(
    choice: RepoChoice, *, fmt: str = "", created: datetime, site_url: str
) -> RenderedConfig:
    fmt = fmt or FORMATS[choice.family][0]
    if fmt not in FORMATS[choice.family]:
        allowed = ", ".join(FORMATS[choice.family])
        raise RenderError(f"format {fmt!r} is not offered for {choice.family}; use {allowed}")
    if choice.family == "apt":
        return _render_apt(choice, fmt, created, site_url)
    return _render_rpm(choice, created, site_url)


def _apt_components(choice: RepoChoice) -> str:
    return "main main/debug" if choice.debug_component else "main"


def _render_apt(choice, fmt, created, site_url) -> RenderedConfig:
    lines = _header(choice, created, site_url)
    note = MIRROR_NOTE.format(host="deb.mariadb.org")
    fallback = apt_uri(APT_FALLBACK, choice, mirror=False)
    active = apt_uri(choice.mirror_base, choice, mirror=True)
    if fmt == "deb822":
        lines += ["X-Repolib-Name: MariaDB", "Types: deb", note, f"# URIs: {fallback}"]
        lines += [
            f"URIs: {active}",
            f"Suites: {choice.suite}",
            f"Components: {_apt_components(choice)}",
        ]
        if choice.arch:
            lines.append(f"Architectures: {choice.arch}")
        lines.append(f"Signed-By: {APT_KEYRING}")
        path = "/etc/apt/sources.list.d/mariadb.sources"
    else:
        options = f"signed-by={APT_KEYRING}" + (f" arch={choice.arch}" if choice.arch else "")
        tail = f"{choice.suite} main"
        lines += [
            note,
            f"# deb [{options}] {fallback} {tail}",
            f"deb [{options}] {active} {tail}",
            f"# deb-src [{options}] {active} {tail}",
        ]
        path = "/etc/apt/sources.list.d/mariadb.list"
    return RenderedConfig(
        format=fmt,
        path=path,
        content="\n".join(lines) + "\n",
        setup_commands=(
            "sudo apt-get install apt-transport-https curl",
            "sudo mkdir -p /etc/apt/keyrings",
            f"sudo curl -o {APT_KEYRING} '{APT_KEY_URL}'",
        ),
        install_commands=("sudo apt-get update", "sudo apt-get install mariadb-server"),
    )


def _render_rpm(choice, created, site_url) -> RenderedConfig:
    note = MIRROR_NOTE.format(host="rpm.mariadb.org")
    lines = [*_header(choice, created, site_url), "[mariadb]", "name = MariaDB", note]
    lines += [
        f"# baseurl = {rpm_baseurl(RPM_FALLBACK, choice, mirror=False)}",
        f"baseurl = {rpm_baseurl(choice.mirror_base, choice, mirror=True)}",
    ]
    if choice.module_hotfixes:
        lines.append("module_hotfixes = 1")
    lines += [
        f"# gpgkey = {rpm_gpgkey(RPM_FALLBACK, mirror=False)}",
        f"gpgkey = {rpm_gpgkey(choice.mirror_base, mirror=True)}",
        "gpgcheck = 1",
    ]
    if choice.family == "zypper":
        return RenderedConfig(
            format="repo",
            path="/etc/zypp/repos.d/mariadb.repo",
            content="\n".join(lines) + "\n",
            setup_commands=(f"sudo rpm --import {rpm_gpgkey(choice.mirror_base, mirror=True)}",),
            install_commands=(
                "sudo zypper refresh",
                "sudo zypper install MariaDB-server MariaDB-client",
            ),
        )
    return RenderedConfig(
        format="repo",
        path="/etc/yum.repos.d/MariaDB.repo",
        content="\n".join(lines) + "\n",
        setup_commands=(),
        install_commands=("sudo dnf install MariaDB-server MariaDB-client",),
    )
