"""The private upload store: files only views hand out, after checking who asks.

Public uploads (logos, photos) go to Django's default storage, which anyone may read:
``MEDIA_ROOT`` served by the web server, or the public bucket of an object store. A file
that must not be public until someone decides (a draft benchmark run's raw output, an
expense receipt) goes to the storage named "private" in settings.STORAGES instead:
``PRIVATE_MEDIA_ROOT``, which no server location maps, or a bucket of its own. Neither
has an address: views stream the file after their permission check."""

from typing import Any

from django.conf import settings
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.functional import LazyObject, cached_property, empty

NO_ADDRESS = "A private file has no address: a view hands it out after checking who asks."


class PrivateStorage(FileSystemStorage):
    @cached_property
    def base_location(self) -> str:
        return str(settings.PRIVATE_MEDIA_ROOT)

    @cached_property
    def base_url(self) -> None:  # type: ignore[override]  # no URL
        return None  # url() refuses: these files are reached through a view

    def _clear_cached_properties(self, setting: str, **kwargs: Any) -> None:
        super()._clear_cached_properties(setting, **kwargs)  # type: ignore[arg-type]  # any setting
        if setting == "PRIVATE_MEDIA_ROOT":
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)


class _Private(LazyObject):
    def _setup(self) -> None:
        self._wrapped = storages["private"]


private_storage = _Private()


@receiver(setting_changed)
def _follow_storages(setting: str, **kwargs: Any) -> None:
    if setting == "STORAGES":
        private_storage._wrapped = empty  # type: ignore[assignment]  # LazyObject's reset


def private() -> Storage:
    # The lazy object stands in for the storage it wraps.
    """For ``FileField(storage=private)``: a callable keeps the store out of migrations."""
    return private_storage  # type: ignore[return-value]
