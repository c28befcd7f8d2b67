from django.conf import settings
from django.core.management.base import BaseCommand
from tqdm import tqdm

from feedback.services import retention


class Command(BaseCommand):
    help = "Delete raw feedback reports older than the retention age, once processed."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=settings.FEEDBACK_RAW_RETENTION_DAYS,
            help="Keep raw reports younger than this many days (default: the setting).",
        )

    def handle(self, *args, days, **options):
        with tqdm(desc="pruned raw reports", unit="report", file=self.stderr) as bar:
            deleted = retention.prune_raw_reports(days, progress=bar.update)
        self.stdout.write(f"Deleted {deleted} raw reports older than {days} days.")
