"""Distributions, releases, availability and mirrors of the foundation's repositories.

Facts from the repository build scripts and endoflife data summarised in
docs/repo-config.md; mirrors are real public mirrors (demo_data/mirrors.json).
"""

import json
from datetime import date
from pathlib import Path

from releases.models import Series
from releases.repoconfig.models import Availability, Distribution, DistributionRelease, Mirror

MIRRORS = Path(__file__).resolve().parent / "demo_data" / "mirrors.json"

# version: (status, support type, first release, end of life)
SERIES = {
    "10.6": ("eol", "long-term", date(2021, 7, 6), date(2026, 7, 6)),
    "10.11": ("stable", "long-term", date(2023, 2, 16), date(2028, 2, 16)),
    "11.4": ("stable", "long-term", date(2024, 5, 29), date(2029, 5, 29)),
    "11.8": ("stable", "long-term", date(2025, 6, 4), date(2028, 6, 4)),
    "12.3": ("stable", "long-term", date(2026, 5, 28), date(2029, 6, 12)),
    "13.0": ("stable", "rolling", date(2026, 9, 15), None),
}

# The build scripts (release/mkrepo-{ubuntu,debian,yum}.sh, docs/repo-config.md) build
# 12.x and 13.0 wherever they build 11.8: one row ("11.8, 12.0-12.3, 13.0, main") in each.
BUILT_LIKE_11_8 = ["12.3", "13.0"]

APT_ALL = "amd64 arm64 ppc64el s390x"
RPM_ALL = "x86_64 aarch64 ppc64le s390x"

# slug, name, family, repo path, header label, debug component, releases:
#   (key, name, suite, eol, module_hotfixes, {series: architectures}) or
#   (key, name, base "distro/key") for releases that use another's repository
DISTRIBUTIONS = [
    ("debian", "Debian", "apt", "debian", "", False, [
        ("bullseye", '11 "Bullseye"', "", date(2026, 8, 31), False,
         dict.fromkeys(["10.6", "10.11", "11.4", "11.8"], "amd64 arm64")),
        ("bookworm", '12 "Bookworm"', "", date(2028, 6, 10), False,
         dict.fromkeys(["10.11", "11.4", "11.8"], "amd64 arm64 ppc64el i386")),
        ("trixie", '13 "Trixie"', "", None, False, {"11.8": "amd64 arm64 ppc64el i386"}),
    ]),
    ("ubuntu", "Ubuntu", "apt", "ubuntu", "", True, [
        ("jammy", '22.04 "jammy"', "", date(2027, 4, 1), False,
         dict.fromkeys(["10.6", "10.11", "11.4", "11.8"], APT_ALL)),
        ("noble", '24.04 "noble"', "", date(2029, 5, 31), False,
         dict.fromkeys(["10.11", "11.4", "11.8"], APT_ALL)),
        ("plucky", '25.04 "plucky"', "", date(2026, 1, 17), False,
         dict.fromkeys(["11.4", "11.8"], "amd64 arm64")),
        ("questing", '25.10 "questing"', "", date(2026, 7, 1), False, {"11.8": "amd64 arm64"}),
        ("resolute", '26.04 "resolute"', "", date(2031, 4, 30), False, {"11.8": APT_ALL}),
    ]),
    ("mint", "Linux Mint", "apt", "ubuntu", "", True, [
        ("virginia", '21.3 "Virginia" (Ubuntu 22.04 base)', "ubuntu/jammy"),
        ("wilma", '22 "Wilma" (Ubuntu 24.04 base)', "ubuntu/noble"),
        ("xia", '22.1 "Xia" (Ubuntu 24.04 base)', "ubuntu/noble"),
    ]),
    ("rhel", "Red Hat Enterprise Linux", "yum", "rhel", "RedHatEnterpriseLinux", False, [
        ("8", "8", "", date(2029, 5, 31), True, dict.fromkeys(["10.6", "10.11", "11.4", "11.8"], RPM_ALL)),
        ("9", "9", "", date(2032, 5, 31), False, dict.fromkeys(["10.6", "10.11", "11.4", "11.8"], RPM_ALL)),
        ("10", "10", "", None, False, dict.fromkeys(["10.11", "11.4", "11.8"], RPM_ALL)),
    ]),
    ("rocky", "Rocky Linux", "yum", "rhel", "RedHatEnterpriseLinux", False, [
        ("8", "8", "rhel/8"), ("9", "9", "rhel/9"), ("10", "10", "rhel/10"),
    ]),
    ("almalinux", "AlmaLinux", "yum", "rhel", "RedHatEnterpriseLinux", False, [
        ("8", "8", "rhel/8"), ("9", "9", "rhel/9"), ("10", "10", "rhel/10"),
    ]),
    ("centos", "CentOS Stream", "yum", "rhel", "RedHatEnterpriseLinux", False, [
        ("9", "Stream 9", "rhel/9"), ("10", "Stream 10", "rhel/10"),
    ]),
    ("fedora", "Fedora", "yum", "fedora", "Fedora", False, [
        ("42", "42", "", None, False, dict.fromkeys(["10.11", "11.4", "11.8"], "x86_64 aarch64")),
        ("43", "43", "", None, False, {"11.8": "x86_64 aarch64"}),
    ]),
    ("opensuse", "openSUSE Leap", "zypper", "opensuse", "openSUSE", False, [
        ("15.6", "15.6", "", None, False, dict.fromkeys(["10.11", "11.4", "11.8"], "x86_64")),
        ("16.0", "16.0", "", None, False, {"11.8": "x86_64"}),
    ]),
    ("sles", "SUSE Linux Enterprise Server", "zypper", "sles", "SLES", False, [
        ("15.6", "15 SP6", "", None, False, dict.fromkeys(["10.11", "11.4"], "x86_64 s390x")),
        ("15.7", "15 SP7", "", None, False, {"11.8": "x86_64 s390x"}),
        ("16.0", "16.0", "", None, False, {"11.8": "x86_64 s390x"}),
    ]),
]  # fmt: skip


def load(log):
    series = {}
    for version, (status, support, first, eol) in SERIES.items():
        series[version], _ = Series.objects.get_or_create(
            version=version,
            defaults={
                "name": f"MariaDB {version}",
                "status": status,
                "support_type": support,
                "first_release_date": first,
                "eol_date": eol,
            },
        )

    data = json.loads(MIRRORS.read_text())
    for mirror in data["mirrors"]:
        Mirror.objects.update_or_create(
            mirror_id=mirror["id"],
            defaults={
                "name": mirror["name"],
                "country": mirror["country"],
                "base_url": mirror["base_url"],
                "active": True,
            },
        )

    derived = []
    for order, (slug, name, family, path, label, debug, releases) in enumerate(DISTRIBUTIONS):
        distribution, _ = Distribution.objects.update_or_create(
            slug=slug,
            defaults={
                "name": name,
                "family": family,
                "repo_path": path,
                "header_label": label,
                "debug_component": debug,
                "order": order,
            },
        )
        for position, spec in enumerate(releases):
            if len(spec) == 3:
                derived.append((distribution, position, spec))
                continue
            key, label_, suite, eol, hotfixes, builds = spec
            release, _ = DistributionRelease.objects.update_or_create(
                distribution=distribution,
                key=key,
                defaults={
                    "name": label_,
                    "suite": suite,
                    "eol_date": eol,
                    "module_hotfixes": hotfixes,
                    "order": position,
                    "base_release": None,
                },
            )
            builds = builds | {v: builds["11.8"] for v in BUILT_LIKE_11_8 if "11.8" in builds}
            for version, arches in builds.items():
                Availability.objects.update_or_create(
                    series=series[version], release=release, defaults={"architectures": arches}
                )
    for distribution, position, (key, label_, base) in derived:
        base_slug, base_key = base.split("/")
        base_release = DistributionRelease.objects.get(distribution__slug=base_slug, key=base_key)
        DistributionRelease.objects.update_or_create(
            distribution=distribution,
            key=key,
            defaults={
                "name": label_,
                "base_release": base_release,
                "order": position,
                "eol_date": base_release.eol_date,
                "module_hotfixes": False,
            },
        )
    log(
        f"repo-config: {Distribution.objects.count()} distributions, "
        f"{DistributionRelease.objects.count()} releases, {Availability.objects.count()} builds, "
        f"{Mirror.objects.count()} mirrors"
    )
