"""The private bucket of an S3-compatible object store (FILE_STORAGE=object), in a module
of its own so that only a site using the store loads boto3."""

from typing import Any

from storages.backends.s3 import S3Storage

from core.storage import NO_ADDRESS


class PrivateObjectStorage(S3Storage):
    """The private bucket. No URL, not even a signed one: views stream the file."""

    def url(
        self,
        name: str | None,
        parameters: dict[str, Any] | None = None,
        expire: int | None = None,
        http_method: str | None = None,
    ) -> str:
        raise ValueError(NO_ADDRESS)
