"""Load the demo content of every capability; safe to run again and again.

Each app keeps its own demo content in ``<app>/demo.py`` with a
``load(log)`` function that creates or updates its objects idempotently, and registers
it from its ``AppConfig.ready()`` (``core.demo.register``), saying which loaders it
follows.
"""

import importlib
from datetime import date
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from core import demo
from core.models import DemoContent


class Command(BaseCommand):
    help = "Create or refresh the demo content (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--only", nargs="*", help="Load only these modules, e.g. foundation.demo"
        )
        parser.add_argument(
            "--day",
            help="The day the demo is built around, as YYYY-MM-DD (default: today)",
        )

    def handle(
        self, *args: Any, only: str | None = None, day: str | None = None, **options: Any
    ) -> None:
        modules = [m for m in demo.ordered() if not only or m in only]
        try:
            built_around = date.fromisoformat(day) if day else timezone.localdate()
        except ValueError:
            raise CommandError(f"--day must be a day as YYYY-MM-DD, not {day!r}") from None
        self.stdout.write(f"Demo content built around {built_around:%Y-%m-%d}.")
        DemoContent.objects.update_or_create(pk=1, defaults={"built_around": built_around})
        with demo.running(modules, built_around):
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

    def _log(self, message: str) -> None:
        self.stdout.write(f"    {message}")
