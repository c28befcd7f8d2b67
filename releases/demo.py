"""Demo series and releases. Versions and dates are real; release files carry
placeholder checksums, labelled as such, because the real tarballs are not here."""

import hashlib
from datetime import date

from releases import services
from releases.models import Release, ReleaseFile, Series

# version: (name, status, support type, first stable release, end of life, description)
SERIES = {
    "10.0": ("MariaDB 10.0", "eol", "short-term", None, None,
             "MariaDB 10.0 was the development version that followed 5.5: built on the 5.5 series, "
             "with features backported and reimplemented from MySQL 5.6 and entirely new ones."),
    "10.6": ("MariaDB 10.6", "eol", "long-term", date(2021, 7, 6), date(2026, 7, 6),
             "A long-term support series, maintained for five years."),
    "10.11": ("MariaDB 10.11", "stable", "long-term", date(2023, 2, 16), date(2028, 2, 16),
              "A long-term support series, maintained for five years."),
    "11.4": ("MariaDB 11.4", "stable", "long-term", date(2024, 5, 29), date(2029, 5, 29),
             "A long-term support series, maintained for five years."),
    "11.8": ("MariaDB 11.8", "stable", "long-term", date(2025, 6, 4), date(2028, 6, 4),
             "A long-term support series; from 11.8 on, long-term support lasts three years."),
}  # fmt: skip

RELEASES = [
    ("10.0.3", "10.0", "alpha", date(2013, 6, 18),
     "This is the fourth release in the MariaDB 10.0 series, published to get it into the hands "
     "of anyone who wants to test it. Not all features planned for the series are included yet."),
    ("10.6.3", "10.6", "ga", date(2021, 7, 6), "The first stable (GA) release of MariaDB 10.6."),
    ("10.11.2", "10.11", "ga", date(2023, 2, 16), "The first stable (GA) release of MariaDB 10.11."),
    ("11.4.2", "11.4", "ga", date(2024, 5, 29), "The first stable (GA) release of MariaDB 11.4."),
    ("11.8.2", "11.8", "ga", date(2025, 6, 4), "The first stable (GA) release of MariaDB 11.8."),
]  # fmt: skip


def placeholder_checksum(file_name, algorithm):
    """Not a real checksum: a stand-in derived from the file name, for the demo only."""
    return hashlib.new(algorithm, f"demo placeholder for {file_name}".encode()).hexdigest()


def files_for(version):
    return [
        ("source", "", "tar.gz", f"mariadb-{version}.tar.gz", f"mariadb-{version}/source/"),
        ("linux", "x86_64", "bintar", f"mariadb-{version}-linux-systemd-x86_64.tar.gz",
         f"mariadb-{version}/bintar-linux-systemd-x86_64/"),
        ("windows", "x86_64", "msi", f"mariadb-{version}-winx64.msi", f"mariadb-{version}/winx64-packages/"),
        ("windows", "x86_64", "zip", f"mariadb-{version}-winx64.zip", f"mariadb-{version}/winx64-packages/"),
    ]  # fmt: skip


def load(log):
    series = {}
    for version, (name, status, support, first, eol, description) in SERIES.items():
        series[version], _ = Series.objects.update_or_create(
            version=version,
            defaults={
                "name": name,
                "status": status,
                "support_type": support,
                "first_release_date": first,
                "eol_date": eol,
                "description": description,
            },
        )
    for version, series_version, maturity, released, notes in RELEASES:
        release, _ = Release.objects.update_or_create(
            version=version,
            defaults={
                "series": series[series_version],
                "maturity": maturity,
                "release_date": released,
                "release_notes": notes + "\n\n*Demo content: see the MariaDB knowledge base for "
                "the full release notes.*",
                "changelog": "*Demo content: the changelog lists every change merged for this "
                "release.*",
            },
        )
        for order, (os_, arch, package, file_name, directory) in enumerate(files_for(version)):
            ReleaseFile.objects.update_or_create(
                release=release,
                file_name=file_name,
                defaults={
                    "os": os_,
                    "architecture": arch,
                    "package_type": package,
                    "path": directory + file_name,
                    "order": order,
                    "sha256": placeholder_checksum(file_name, "sha256"),
                    "sha512": placeholder_checksum(file_name, "sha512"),
                    "signature_path": directory + file_name + ".asc",
                },
            )
        services.publish_release(release)
    log(f"releases: {Series.objects.count()} series, {Release.objects.count()} releases")
