"""Logo uploads: PNG, JPEG, WebP or SVG; SVG is rebuilt from an allow-list, rasters get a thumbnail."""

import io
import re
import warnings
from typing import Any
from xml.etree.ElementTree import register_namespace, tostring

from defusedxml import ElementTree
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from PIL import Image, UnidentifiedImageError

from core.uploads import read_upload

MAX_BYTES = 1024 * 1024
MAX_SIDE = 4000  # px
TOO_MANY_PIXELS = f"The logo is larger than {MAX_SIDE} × {MAX_SIDE} pixels."
THUMBNAIL_HEIGHT = 120  # px, when the tier does not say
RASTER_FORMATS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}
SVG_NS = "http://www.w3.org/2000/svg"
# Elements nested deeper than this are refused: cleaning and writing the SVG walk it
# recursively, and a logo drawn by a tool nests a few groups, not hundreds.
MAX_SVG_DEPTH = 64
TOO_DEEP = f"The SVG nests its elements more than {MAX_SVG_DEPTH} levels deep."
ALLOWED_ELEMENTS = {
    "svg",
    "g",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "defs",
    "lineargradient",
    "radialgradient",
    "stop",
    "title",
    "desc",
    "clippath",
    "use",
}
ALLOWED_ATTRIBUTES = {
    "viewbox",
    "width",
    "height",
    "x",
    "y",
    "x1",
    "x2",
    "y1",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "d",
    "points",
    "fill",
    "fill-rule",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "transform",
    "offset",
    "stop-color",
    "stop-opacity",
    "id",
    "class",
    "gradientunits",
    "gradienttransform",
    "clip-path",
    "font-family",
    "font-size",
    "font-weight",
    "text-anchor",
    "xmlns",
    "version",
    "preserveaspectratio",
    "href",
}
LOCAL_REFERENCE = re.compile(r"^#[A-Za-z][\w.-]*$")
URL_VALUE = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I)


def _local_name(name: str) -> str:
    return name.rsplit("}", 1)[-1].lower()


def _depth(root) -> int:
    """How deep the elements nest (the root is 1), counted without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_SVG_DEPTH:  # deeper is refused whatever lies below
            stack.extend((child, depth + 1) for child in element)
    return deepest


def sanitise_svg(data: bytes) -> bytes:
    """Keep only drawing elements and attributes; no scripts, handlers or external references."""
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except Exception as error:  # defusedxml raises several types for hostile or broken XML
        raise ValidationError(
            f"The SVG could not be read safely ({type(error).__name__})."
        ) from error
    if _local_name(root.tag) != "svg":
        raise ValidationError("The file is not an SVG image.")
    if _depth(root) > MAX_SVG_DEPTH:
        raise ValidationError(TOO_DEEP)

    def clean(element):
        for child in list(element):
            if not isinstance(child.tag, str) or _local_name(child.tag) not in ALLOWED_ELEMENTS:
                element.remove(child)
            else:
                clean(child)
        for name in list(element.attrib):
            local = _local_name(name)
            value = element.attrib[name]
            if (
                local not in ALLOWED_ATTRIBUTES
                or local.startswith("on")
                or (local == "href" and not LOCAL_REFERENCE.match(value.strip()))
                or any(
                    not LOCAL_REFERENCE.match(ref.strip()) for _, ref in URL_VALUE.findall(value)
                )
            ):
                del element.attrib[name]

    clean(root)
    register_namespace("", SVG_NS)
    return tostring(root, encoding="utf-8")


def process_logo(
    upload: "File[Any]", height: int = THUMBNAIL_HEIGHT
) -> "tuple[ContentFile[bytes], ContentFile[bytes] | None]":
    """Validate an uploaded logo; return (clean file, thumbnail or None). Raises ValidationError.

    The size is checked before a byte is read (Django has streamed a large upload to a
    temporary file, not to memory), and no more than the limit is ever read.
    """
    data = read_upload(upload, MAX_BYTES, what="The logo")
    uploaded_name = upload.name or ""
    stem = re.sub(r"[^A-Za-z0-9_-]", "-", uploaded_name.rsplit(".", 1)[0])[:50] or "logo"
    if data.lstrip()[:5] in (b"<?xml", b"<svg ") or uploaded_name.lower().endswith(".svg"):
        return ContentFile(sanitise_svg(data), name=f"{stem}.svg"), None
    try:
        with warnings.catch_warnings():
            # Pillow warns above MAX_IMAGE_PIXELS and raises above twice that; both are bombs.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            image.verify()
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ValidationError(TOO_MANY_PIXELS) from error
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError) as error:
        # ValueError: e.g. a PNG text chunk that decompresses beyond Pillow's limit.
        raise ValidationError("The logo must be a PNG, JPEG, WebP or SVG image.") from error
    if image.format not in RASTER_FORMATS:
        raise ValidationError(
            f"{image.format} images are not accepted; use PNG, JPEG, WebP or SVG."
        )
    if image.width > MAX_SIDE or image.height > MAX_SIDE:
        raise ValidationError(TOO_MANY_PIXELS)
    try:
        thumbnail = image.convert("RGBA")
        thumbnail.thumbnail((height * 4, height))
    except (OSError, ValueError, SyntaxError, EOFError) as error:  # truncated or corrupt data
        raise ValidationError("The logo image is damaged and could not be read.") from error
    buffer = io.BytesIO()
    thumbnail.save(buffer, format="PNG")
    clean = ContentFile(data, name=f"{stem}.{RASTER_FORMATS[image.format]}")
    return clean, ContentFile(buffer.getvalue(), name=f"{stem}-thumb.png")
