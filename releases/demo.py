"""Demo content: the real catalogue (every series and release with its real dates, from
releases/data/mariadb-releases.json), descriptions of a few series, and the seed's
announcements, and the real release files of releases/data/mariadb-release-files.json
(names, archive paths and SHA-256 digests from public packaging recipes, each with its
source) joined with the source tarballs and sizes of mariadb-release-file-sizes.json. Nothing is invented: a file not in that list
is not shown."""

import json

from core import demo
from foundation.models import NewsPost
from releases.catalogue import IN_REPO_CATALOGUE
from releases.models import Release, Series
from releases.release_files import IN_REPO_FILES, IN_REPO_SIZES, read_real_data
from releases.services import importing, publishing

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


def read_in_repo_data():
    with open(IN_REPO_CATALOGUE, encoding="utf-8") as handle:
        catalogue_data = json.load(handle)
    with open(IN_REPO_FILES, encoding="utf-8") as handle:
        files_data = json.load(handle)
    with open(IN_REPO_SIZES, encoding="utf-8") as handle:
        sizes_data = json.load(handle)
    return read_real_data(catalogue_data, files_data, sizes_data)


def load_catalogue():
    catalogue, file_list = read_in_repo_data()
    report = importing.import_catalogue(catalogue, demo.today())
    return report, importing.record_release_files(file_list.files)


def load(log):
    report, file_report = load_catalogue()
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
        publishing.publish_release(release)
    announced = Release.objects.filter(version__in=ANNOUNCED).values("announcement")
    NewsPost.objects.filter(pk__in=announced).unedited_since_publication()
    for line in [*report.lines(), *file_report.lines()]:
        log(f"releases: {line}")
