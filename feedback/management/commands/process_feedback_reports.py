from django.core.management.base import BaseCommand
from tqdm import tqdm

from feedback.models import RawReport
from feedback.services import processing


class Command(BaseCommand):
    help = "Parse every pending raw feedback report (what the Celery tasks do in batches)."

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=1000)

    def handle(self, *args, batch_size, **options):
        pending = RawReport.objects.pending().count()
        with tqdm(total=pending, desc="processed reports", unit="report", file=self.stderr) as bar:
            result = processing.process_all_pending(batch_size, progress=bar.update)
        self.stdout.write(f"{result.processed} processed, {result.rejected} rejected.")
