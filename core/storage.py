"""The private upload folder: files only views hand out, after checking who asks.

``MEDIA_ROOT`` is served by the web server to anyone who has an address; a file that must
not be public until someone decides (a draft benchmark run's raw output) lives under
``PRIVATE_MEDIA_ROOT`` instead, which no server location maps and which has no URL."""

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.utils.functional import cached_property


class PrivateStorage(FileSystemStorage):
    @cached_property
    def base_location(self):
        return settings.PRIVATE_MEDIA_ROOT

    @cached_property
    def base_url(self):
        return None  # url() refuses: these files are reached through a view

    def _clear_cached_properties(self, setting, **kwargs):
        super()._clear_cached_properties(setting, **kwargs)
        if setting == "PRIVATE_MEDIA_ROOT":
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)


private_storage = PrivateStorage()


def private() -> PrivateStorage:
    """For ``FileField(storage=private)``: a callable keeps the folder out of migrations."""
    return private_storage
