"""Copy every uploaded file between the local folders and the object store.

``move_files --to object`` copies MEDIA_ROOT into the public bucket and PRIVATE_MEDIA_ROOT
into the private one (settings.FILE_STORAGES); ``--to disk`` copies back. A file the
destination already holds with the same size and SHA-256 is left alone, one that differs
is replaced, so the command can run again (before switching FILE_STORAGE, and once more
after, for files uploaded meanwhile). Every copy is read back and its size and digest
compared with the source's; any difference stops the command with an error. Sources are
never deleted: remove the old folder or bucket once the site runs on the new place.
"""

import hashlib
from typing import Any

from django.conf import settings
from django.core.files.storage import Storage
from django.core.files.storage.handler import StorageHandler
from django.core.management.base import BaseCommand, CommandError, CommandParser

PLACES = {"object": "disk", "disk": "object"}  # destination: source
KINDS = {"default": "public", "private": "private"}
OBJECT_BUCKETS = ("OBJECT_STORAGE_PUBLIC_BUCKET", "OBJECT_STORAGE_PRIVATE_BUCKET")


def stored_names(storage: Storage, folder: str = "") -> list[str]:
    """Every file under ``folder``, sorted, as names the storage accepts."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:  # a local folder that was never created holds nothing
        return []
    names = [f"{folder}/{name}" if folder else name for name in sorted(files)]
    for sub in sorted(folders):
        names += stored_names(storage, f"{folder}/{sub}" if folder else sub)
    return names


def fingerprint(storage: Storage, name: str) -> tuple[int, str]:
    """(size in bytes, SHA-256) of the stored file, read back in full."""
    digest, size = hashlib.sha256(), 0
    with storage.open(name, "rb") as handle:
        for chunk in handle.chunks():
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


class Command(BaseCommand):
    help = (
        "Copy uploaded files from the local folders to the object store (--to object) or "
        "back (--to disk), checking each copy's size and SHA-256; safe to run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to", required=True, choices=sorted(PLACES))

    def handle(self, *args: Any, to: str, **options: Any) -> None:
        missing = [name for name in OBJECT_BUCKETS if not getattr(settings, name)]
        if missing:
            raise CommandError(f"Set {' and '.join(missing)} first (docs/SCALING.md).")
        sources = StorageHandler(settings.FILE_STORAGES[PLACES[to]])  # type: ignore[arg-type]  # a STORAGES mapping
        destinations = StorageHandler(settings.FILE_STORAGES[to])  # type: ignore[arg-type]  # a STORAGES mapping
        totals = {}
        for alias, kind in KINDS.items():
            source, destination = sources[alias], destinations[alias]
            names = stored_names(source)
            outcome = {"copied": 0, "replaced": 0, "already there": 0}
            for position, name in enumerate(names, start=1):
                done = self.copy(source, destination, name)
                outcome[done] += 1
                self.stdout.write(f"[{kind} {position}/{len(names)}] {name}: {done}")
            totals[kind] = outcome
        for kind, outcome in totals.items():
            summary = ", ".join(f"{count} {what}" for what, count in outcome.items())
            self.stdout.write(f"{kind} files to {to}: {summary}; every copy checked")

    def copy(self, source: Storage, destination: Storage, name: str) -> str:
        expected = fingerprint(source, name)
        replacing = destination.exists(name)
        if replacing:
            if fingerprint(destination, name) == expected:
                return "already there"
            destination.delete(name)
        with source.open(name, "rb") as handle:
            saved = destination.save(name, handle)
        if saved != name:
            raise CommandError(f"{name} was stored under another name, {saved}")
        found = fingerprint(destination, name)
        if found != expected:
            raise CommandError(
                f"{name}: the copy has {found[0]} bytes, SHA-256 {found[1]}; the original "
                f"{expected[0]} bytes, SHA-256 {expected[1]}. The original is untouched."
            )
        return "replaced" if replacing else "copied"
