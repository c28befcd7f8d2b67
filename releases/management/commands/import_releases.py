"""manage.py import_releases FILE: load the release catalogue (idempotent, never deletes)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tqdm import tqdm

from releases import services
from releases.catalogue import IN_REPO_CATALOGUE, CatalogueError, parse_catalogue


class Command(BaseCommand):
    help = (
        "Create or update MariaDB series and releases from a catalogue file such as "
        "releases/data/mariadb-releases.json. Updates what changed, never deletes."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", default=str(IN_REPO_CATALOGUE), help="the catalogue (JSON)"
        )

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
            catalogue = parse_catalogue(data)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}") from error
        except CatalogueError as error:
            raise CommandError(f"{file}: {error}. Nothing was changed.") from error
        self.stdout.write(
            f"{file}: {len(catalogue.series)} series, {len(catalogue.releases)} releases"
        )

        def progress(items):
            # disable=None: a bar on a terminal, silence in logs and pipes.
            return tqdm(items, desc="releases", unit="release", file=sys.stderr, disable=None)

        report = services.import_catalogue(catalogue, timezone.localdate(), progress=progress)
        for line in report.lines():
            self.stdout.write(line)
