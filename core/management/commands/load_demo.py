"""Load the demo content of every capability; safe to run again and again.

Each app keeps its own demo content in ``<app>/demo.py`` with a
``load(log)`` function that creates or updates its objects idempotently, and registers
it from its ``AppConfig.ready()`` (``core.demo.register``), saying which loaders it
follows.
"""

import importlib

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from core import demo


class Command(BaseCommand):
    help = "Create or refresh the demo content (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--only", nargs="*", help="Load only these modules, e.g. foundation.demo"
        )

    def handle(self, *args, only=None, **options):
        modules = [m for m in demo.ordered() if not only or m in only]
        with demo.running(modules):
            for position, module_name in enumerate(modules, start=1):
                self.stdout.write(f"[{position}/{len(modules)}] {module_name} ...")
                module = importlib.import_module(module_name)
                with transaction.atomic():
                    module.load(log=self._log)
        if settings.PRODUCTION:
            self.stdout.write("No demo staff account under the production profile.")
        else:
            outcome = demo.ensure_demo_staff()
            self.stdout.write(
                f"Demo staff account {outcome} (development only): user "
                f"{demo.DEMO_STAFF_USERNAME!r}, password {demo.DEMO_STAFF_PASSWORD!r} at /admin/."
            )
        self.stdout.write(self.style.SUCCESS("Demo content loaded."))

    def _log(self, message):
        self.stdout.write(f"    {message}")
