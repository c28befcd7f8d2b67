"""Development: what `make run` does once before the site, the worker and beat start (the
Procfile's ``web`` line runs it; ``worker`` and ``beat`` run it with ``--wait``).

It waits for the engines the Procfile starts beside it (PostgreSQL, Redis, the Stripe fake),
then: ``migrate``; ``load_demo`` when the demo is not there yet (a first run, or after
``make clean``; its last step makes the demo staff account), not at every start; ``forget_fake_stripe_ids``, since the fake starts empty
each run; and asks the fake to deliver its events, signed with the webhook secret, to
the site's webhook. Last it leaves a mark in Redis, which starts empty each run: ``--wait``
returns when the mark is there, so the worker and beat start on a migrated database.
Refused under the production profile.
"""

import socket
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import OperationalError, connection

from core.demo import DEMO_STAFF_USERNAME

PREPARED_KEY = "devstack:prepared"
WAIT_SECONDS = 120


def wait_for(what: str, ready: Callable[[], object], seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise CommandError(f"{what} did not answer within {seconds} s")
        time.sleep(0.1)


def database_answers() -> bool:
    try:
        connection.ensure_connection()
        return True
    except OperationalError:
        return False


def stripe_fake_answers() -> bool:
    address = urllib.parse.urlsplit(settings.STRIPE_API_BASE)
    try:
        socket.create_connection((address.hostname, address.port or 80), timeout=0.5).close()
        return True
    except OSError:
        return False


class Command(BaseCommand):
    help = "Prepare make run's database and Stripe fake once (or, with --wait, wait for that)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--wait", action="store_true", help="wait until another process has prepared"
        )
        parser.add_argument(
            "--demo",
            nargs="*",
            default=None,
            help="demo modules a new database gets (default: all; with no name: none)",
        )

    def handle(
        self, *args: Any, wait: bool = False, demo: list[str] | None = None, **options: Any
    ) -> None:
        if settings.PRODUCTION:
            raise CommandError("Development only: refused under DJANGO_ENV=production.")
        if not settings.STRIPE_API_BASE:
            raise CommandError("STRIPE_API_BASE must name the Stripe fake (make run sets it).")
        if wait:
            wait_for(
                "the preparation (the web line of the Procfile)", lambda: cache.get(PREPARED_KEY)
            )
            return
        wait_for("PostgreSQL", database_answers)
        call_command("migrate", interactive=False, verbosity=1)
        # load_demo makes the demo staff account last: without it, the demo is not loaded.
        loaded = get_user_model().objects.filter(username=DEMO_STAFF_USERNAME).exists()
        if not loaded and demo != []:
            call_command("load_demo", *(["--only", *demo] if demo else []))
        wait_for("the Stripe fake", stripe_fake_answers)
        call_command("forget_fake_stripe_ids")
        call_command("connect_stripe_fake")

        def redis_answers() -> object:
            cache.set(PREPARED_KEY, True, None)
            return cache.get(PREPARED_KEY)

        wait_for("Redis", redis_answers)
        self.stdout.write(f"Prepared; the site starts at {settings.SITE_URL}")
