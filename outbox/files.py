"""Stored files deleted through the outbox, so that no file outlives its row.

A file replaced or removed is deleted by an outbox item recorded in the transaction that
stops using it (``delete_after_commit``): no deletion if the change rolls back, and one
that is retried until done if the store is unreachable at that moment.

A new file is stored *before* the transaction that records it, and a host killed between
the store's PUT and that commit would leave a file no row names. So ``store_uncommitted``
first records an item that deletes the file, due ``ORPHAN_FILE_GRACE`` later, committed
on its own when called outside a transaction (as the services that store uploads do),
then stores the file under a name no other file has; the transaction that records the
row calls ``keep``, which withdraws the item. If that transaction never commits, the
outbox sweep deletes the file once the grace has passed.

Storages are named by their alias in ``settings.STORAGES`` ("default", "private"), so an
item can be carried out by any process.
"""

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files import File
from django.core.files.storage import Storage, storages
from django.utils import timezone
from django.utils.functional import LazyObject, empty

from outbox import queue

DELETE_FILE = "outbox.delete_file"
# How long an upload may take to be committed before its file counts as an orphan.
ORPHAN_FILE_GRACE = timedelta(hours=1)


def delete_file(storage: str, name: str) -> None:
    """The side effect: deleting a name that is already gone does nothing."""
    storages[storage].delete(name)


def storage_alias(storage: Storage | LazyObject) -> str:
    """The alias in settings.STORAGES of ``storage`` (also behind a lazy object such as
    Django's default_storage or core.storage.private_storage)."""
    storage = _unwrapped(storage)
    for alias in settings.STORAGES:
        if alias != "staticfiles" and storages[alias] is storage:
            return alias
    raise LookupError(f"{storage!r} is none of settings.STORAGES")


def _unwrapped(storage: Storage | LazyObject) -> Storage:
    if not isinstance(storage, LazyObject):
        return storage
    if storage._wrapped is empty:  # type: ignore[attr-defined]  # LazyObject's own
        storage._setup()  # type: ignore[attr-defined]
    wrapped: Storage = storage._wrapped  # type: ignore[attr-defined]
    return wrapped


def delete_after_commit(storage: Storage | LazyObject, name: str) -> None:
    """In the transaction that stops using the file: delete it once that commits."""
    if name:
        queue.enqueue(DELETE_FILE, storage=storage_alias(storage), name=name)


def store_uncommitted(storage: Storage, name: str, content: "File[Any]") -> str:
    """Store ``content`` as a new file for a row not committed yet; the name stored under
    (``name`` in a folder of a random name, so no other file has it). Call it outside a
    transaction, then ``keep`` the name in the transaction that records the row."""
    directory, _, base = name.rpartition("/")  # a folder of its own keeps the file's name
    unique = storage.generate_filename(f"{directory}/{secrets.token_hex(8)}/{base}".lstrip("/"))
    alias = storage_alias(storage)
    queue.enqueue(
        DELETE_FILE, not_before=timezone.now() + ORPHAN_FILE_GRACE, storage=alias, name=unique
    )
    stored: str = storage.save(unique, content)
    if stored != unique:  # the store renamed it after all: that name is the one to delete
        queue.enqueue(
            DELETE_FILE, not_before=timezone.now() + ORPHAN_FILE_GRACE, storage=alias, name=stored
        )
    return stored


def keep(storage: Storage | LazyObject, name: str) -> None:
    """In the transaction that records the row naming the file: it is no orphan."""
    if name:
        queue.withdraw(DELETE_FILE, storage=storage_alias(storage), name=name)
