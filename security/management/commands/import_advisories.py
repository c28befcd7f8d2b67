"""manage.py import_advisories [FILE]: load the security advisories (idempotent)."""

from django.core.management.base import BaseCommand, CommandError

from security.advisory_file import IN_REPO_ADVISORIES, AdvisoryFileError, read_file
from security.services import ImportRefused, import_advisories


class Command(BaseCommand):
    help = (
        "Create or update the security advisories and their affected ranges from a file "
        "such as security/data/mariadb-security-advisories.json (after import_releases: "
        "the ranges name releases). Running it again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", default=str(IN_REPO_ADVISORIES), help="the advisories (JSON)"
        )

    def handle(self, *args, file, **options):
        try:
            records = read_file(file)
            report = import_advisories(records)
        except (AdvisoryFileError, ImportRefused) as error:
            raise CommandError(f"{file}: {error} Nothing was changed.") from error
        for line in report.lines():
            self.stdout.write(f"{file}: {line}")
