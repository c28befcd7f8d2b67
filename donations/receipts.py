"""Receipt uploads for expenses: a PDF, or a PNG or JPEG re-encoded without its metadata."""

import io

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import Image, UnidentifiedImageError

from core.uploads import read_upload

MAX_BYTES = 5 * 1024 * 1024
IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg"}


def clean_receipt(upload) -> ContentFile:
    """The receipt to store, or ValidationError saying why it was refused."""
    data = read_upload(upload, MAX_BYTES, what="The receipt")
    if data.startswith(b"%PDF-"):
        if b"%%EOF" not in data[-1024:]:
            raise ValidationError("The PDF is incomplete (it has no end marker).", code="pdf")
        return ContentFile(data, name="receipt.pdf")
    try:
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            probe.verify()
        if kind not in IMAGE_FORMATS:
            raise UnidentifiedImageError(kind)
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            clean = io.BytesIO()
            # Saving a fresh copy drops EXIF (GPS positions, camera serials) and any trailer.
            image.save(clean, format=kind)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise ValidationError("A receipt must be a PDF, PNG or JPEG file.", code="format") from None
    return ContentFile(clean.getvalue(), name=f"receipt.{IMAGE_FORMATS[kind]}")
