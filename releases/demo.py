"""Demo content: the real catalogue (every series and release with its real dates, from
releases/data/mariadb-releases.json), descriptions of a few series, and the seed's
announcements. Release files are listed with their real names and mirror paths but
without checksums: the real tarballs are not here, and no checksum is invented."""

import json

from django.utils import timezone

from releases import services
from releases.catalogue import IN_REPO_CATALOGUE, parse_catalogue
from releases.models import Release, ReleaseFile, Series

DESCRIPTIONS = {
    "10.0": "MariaDB 10.0 was the development version that followed 5.5: built on the 5.5 series, "
            "with features backported and reimplemented from MySQL 5.6 and entirely new ones.",
    "10.6": "A long-term support series, maintained for five years.",
    "10.11": "A long-term support series, maintained for five years.",
    "11.4": "A long-term support series, maintained for five years.",
    "11.8": "A long-term support series; from 11.8 on, community long-term support lasts three years.",
}  # fmt: skip

# Releases announced in the demo news, with the seed's words for the 10.0.3 alpha.
ANNOUNCED = {
    "10.0.3": "This is the fourth release in the MariaDB 10.0 series, published to get it into "
              "the hands of anyone who wants to test it. Not all features planned for the series "
              "are included yet.",
    "10.6.3": "The first stable (GA) release of MariaDB 10.6.",
    "10.11.2": "The first stable (GA) release of MariaDB 10.11.",
    "11.4.2": "The first stable (GA) release of MariaDB 11.4.",
    "11.8.2": "The first stable (GA) release of MariaDB 11.8.",
}  # fmt: skip


def files_for(version):
    return [
        ("source", "", "tar.gz", f"mariadb-{version}.tar.gz", f"mariadb-{version}/source/"),
        (
            "linux",
            "x86_64",
            "bintar",
            f"mariadb-{version}-linux-systemd-x86_64.tar.gz",
            f"mariadb-{version}/bintar-linux-systemd-x86_64/",
        ),
        (
            "windows",
            "x86_64",
            "msi",
            f"mariadb-{version}-winx64.msi",
            f"mariadb-{version}/winx64-packages/",
        ),
        (
            "windows",
            "x86_64",
            "zip",
            f"mariadb-{version}-winx64.zip",
            f"mariadb-{version}/winx64-packages/",
        ),
    ]


def load_catalogue():
    with open(IN_REPO_CATALOGUE, encoding="utf-8") as handle:
        catalogue = parse_catalogue(json.load(handle))
    return services.import_catalogue(catalogue, timezone.localdate())


def load(log):
    report = load_catalogue()
    for version, description in DESCRIPTIONS.items():
        Series.objects.filter(version=version, description="").update(description=description)
    for release in Release.objects.filter(version__in=ANNOUNCED).select_related("series"):
        if not release.release_notes:
            release.release_notes = (
                ANNOUNCED[release.version] + "\n\n*Demo content: see the MariaDB documentation "
                "for the full release notes.*"
            )
            release.changelog = (
                "*Demo content: the changelog lists every change merged for this release.*"
            )
        for order, (os_, arch, package, file_name, directory) in enumerate(
            files_for(release.version)
        ):
            # Real names and mirror paths; no size or checksum, because none is known here.
            ReleaseFile.objects.update_or_create(
                release=release,
                file_name=file_name,
                defaults={
                    "os": os_,
                    "architecture": arch,
                    "package_type": package,
                    "path": directory + file_name,
                    "order": order,
                    "sha256": "",
                    "sha512": "",
                    "signature_path": directory + file_name + ".asc",
                },
            )
        services.publish_release(release)
    for line in report.lines():
        log(f"releases: {line}")
