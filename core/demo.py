"""The demo loaders of the apps, registered from each app's ``AppConfig.ready()`` and run
by ``manage.py load_demo``: core names no app.

A loader is a module with a ``load(log)`` function that creates or updates its objects
idempotently. It is registered by its dotted name and imported only when the demo is
loaded. ``after`` names the loaders whose content it uses (releases announce into the
news, so ``releases.demo`` comes after ``foundation.demo``); ``EVERYTHING_ELSE`` puts a
loader after all the others (the search index, built from what they created).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

EVERYTHING_ELSE = "*"


@dataclass(frozen=True)
class DemoLoader:
    module: str
    after: tuple[str, ...]


_loaders: dict[str, DemoLoader] = {}
_running: frozenset[str] = frozenset()
_built_around: date | None = None


def register(module: str, *, after: tuple[str, ...] | str = ()) -> None:
    after = (after,) if isinstance(after, str) else tuple(after)
    _loaders[module] = DemoLoader(module, after)


def ordered() -> list[str]:
    """The registered loaders' modules, each after those it names, otherwise in the order
    the apps registered them (INSTALLED_APPS)."""
    last = [m for m, loader in _loaders.items() if EVERYTHING_ELSE in loader.after]
    first = [m for m in _loaders if m not in last]
    for loader in _loaders.values():
        missing = set(loader.after) - set(_loaders) - {EVERYTHING_ELSE}
        if missing:
            raise LookupError(f"{loader.module} loads after unregistered {sorted(missing)}")
    done: list[str] = []
    for group in (first, last):
        waiting = list(group)
        while waiting:
            ready = next(
                (m for m in waiting if set(_loaders[m].after) - {EVERYTHING_ELSE} <= set(done)),
                None,
            )
            if ready is None:
                raise LookupError(f"demo loaders wait for each other: {waiting}")
            done.append(ready)
            waiting.remove(ready)
    return done


@contextmanager
def running(modules: list[str], built_around: date | None = None) -> Iterator[None]:
    """While ``load_demo`` runs these loaders (see ``will_run``), building the demo around
    ``built_around`` (see ``today``)."""
    global _running, _built_around
    before = _running, _built_around
    _running, _built_around = frozenset(modules), built_around
    try:
        yield
    finally:
        _running, _built_around = before


def today() -> date:
    """The day the demo being loaded treats as today: ``load_demo --day`` (the day it
    records in ``core.DemoContent``), else the real today. Loaders date what they make
    from this day, never from the clock."""
    return _built_around or timezone.localdate()


def now() -> datetime:
    """This moment of the day ``today`` names (the clock moved by whole days)."""
    return timezone.now() + (today() - timezone.localdate())


def will_run(module: str) -> bool:
    """Whether the demo being loaded includes ``module``: work that loader redoes in bulk
    at its turn (the search index, rebuilt from everything) need not be done per object
    before it."""
    return module in _running


# Development only (``load_demo`` makes it unless DJANGO_ENV=production): a staff account
# with a published password, so a person trying the site on `make run` can use /admin/.
DEMO_STAFF_USERNAME = "staff"
DEMO_STAFF_PASSWORD = "demo-staff-only"  # noqa: S105 - published on purpose, never in production


def ensure_demo_staff() -> str:
    """The development superuser (created, or its password reset); returns what happened."""
    user, created = get_user_model().objects.get_or_create(
        username=DEMO_STAFF_USERNAME,
        defaults={"email": "staff@localhost", "is_staff": True, "is_superuser": True},
    )
    user.is_staff = user.is_superuser = user.is_active = True
    user.set_password(DEMO_STAFF_PASSWORD)
    user.save()
    return "created" if created else "refreshed"
