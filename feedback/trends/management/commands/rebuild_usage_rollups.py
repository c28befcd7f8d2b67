from django.core.management.base import BaseCommand
from tqdm import tqdm

from feedback.trends.rollups import rebuild_all, update_rollups
from feedback.trends.snapshots import publish_complete_months


class Command(BaseCommand):
    help = (
        "Count the usage rollups again from every processed report (the beat task does this "
        "by itself after a mapping change; this shows progress), then publish finished months."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--incremental", action="store_true", help="only what new reports touched"
        )

    def handle(self, *args, incremental, **options):
        with tqdm(desc="periods counted", unit="period", file=self.stderr) as bar:
            count = (update_rollups if incremental else rebuild_all)(progress=bar.update)
        published = publish_complete_months()
        self.stdout.write(f"{count} periods counted; {len(published)} monthly snapshots published.")
