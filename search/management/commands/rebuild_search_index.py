from django.core.management.base import BaseCommand

from search import services


class Command(BaseCommand):
    help = "Index every public object afresh (the signals keep the index current after that)."

    def handle(self, *args, **options):
        self.stdout.write("Rebuilding the search index ...")
        total = services.rebuild(progress=lambda message: self.stdout.write(f"    {message}"))
        self.stdout.write(self.style.SUCCESS(f"Search index rebuilt: {total} entries."))
