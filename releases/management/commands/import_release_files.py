"""manage.py import_release_files <archive root or mirror URL> [--release X.Y.Z]: record the
files of the known releases from the foundation's archive (idempotent; see docs/releases.md)."""

import sys

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from releases.archive import ArchiveError, open_archive
from releases.models import Release
from releases.services import importing
from releases.versions import RELEASE_VERSION


class Command(BaseCommand):
    help = (
        "Walk the release archive (a local copy or a mirror's http(s):// base URL) and record "
        "every file of every known release: size, OS, CPU, package type, the published "
        "checksums and the signature. Local files are verified against sha256sums.txt."
    )

    def add_arguments(self, parser):
        parser.add_argument("location", help="archive root directory or mirror base URL")
        parser.add_argument("--release", help="only this release, e.g. 11.4.5")

    def handle(self, *args, location, release, **options):
        releases = Release.objects.by_version()
        if release is not None:
            if not RELEASE_VERSION.match(release):
                raise CommandError(f"{release!r} is not a release version like 11.4.5")
            releases = releases.filter(version=release)
            if not releases.exists():
                raise CommandError(f"Release {release} is not in the catalogue; add it first.")
        try:
            archive = open_archive(location)

            def progress(items):
                return tqdm(items, desc="releases", unit="release", file=sys.stderr, disable=None)

            report = importing.import_archive(
                archive, releases.values_list("version", flat=True), progress=progress
            )
        except ArchiveError as error:
            raise CommandError(f"Cannot read the archive: {error}. Nothing was changed.") from error
        for line in report.lines():
            self.stdout.write(line)
        if report.problems:
            self.stderr.write(f"{len(report.problems)} problems; see the lines above.")
