"""manage.py import_releases [FILE] [--files FILES] [--sizes SIZES]: load the release catalogue and the
compiled release files (idempotent, never deletes)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from tqdm import tqdm

from releases.catalogue import IN_REPO_CATALOGUE, CatalogueError
from releases.release_files import IN_REPO_FILES, IN_REPO_SIZES, read_real_data
from releases.services import importing


class Command(BaseCommand):
    help = (
        "Create or update MariaDB series and releases from a catalogue file such as "
        "releases/data/mariadb-releases.json. Updates what changed, never deletes."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", default=str(IN_REPO_CATALOGUE), help="the catalogue (JSON)"
        )
        parser.add_argument(
            "--files",
            default=str(IN_REPO_FILES),
            help="the release files with checksums and later releases (JSON)",
        )
        parser.add_argument(
            "--sizes",
            default=str(IN_REPO_SIZES),
            help="source tarballs with their sizes, joined to the files (JSON)",
        )

    def read(self, file):
        try:
            with open(file, encoding="utf-8") as handle:
                return json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}") from error

    def handle(self, *args, file, files, sizes, **options):
        catalogue_data, files_data, sizes_data = self.read(file), self.read(files), self.read(sizes)
        try:
            catalogue, file_list = read_real_data(catalogue_data, files_data, sizes_data)
        except CatalogueError as error:
            raise CommandError(
                f"{file}, {files} or {sizes}: {error}. Nothing was changed."
            ) from error
        self.stdout.write(
            f"{file}: {len(catalogue.series)} series, {len(catalogue.releases)} releases "
            f"(with the later releases of {files}); {len(file_list.files)} files"
        )

        def progress(items):
            # disable=None: a bar on a terminal, silence in logs and pipes.
            return tqdm(items, desc="releases", unit="release", file=sys.stderr, disable=None)

        with transaction.atomic():
            report = importing.import_catalogue(catalogue, timezone.localdate(), progress=progress)
            file_report = importing.record_release_files(file_list.files)
        if file_list.skipped_later:
            self.stdout.write(
                "later releases left out, their maturity is not known: "
                + ", ".join(file_list.skipped_later)
            )
        for line in [*report.lines(), *file_report.lines()]:
            self.stdout.write(line)
