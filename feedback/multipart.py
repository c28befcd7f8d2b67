"""The report out of the plugin's multipart upload (pure: no database).

The feedback plugin posts one part, ``name="data"; filename="-"``, holding the report.
This reads that part straight out of the body already in memory, instead of running
Django's generic multipart parser (file handlers, temporary uploads, a form dictionary)
on every report. The bytes it returns are the ones Django's parser returned before
(the line break before the next delimiter is not part of the report, as there), so a
report's sha256 and the resend flag do not change with the reader.
"""

import base64
import binascii
import functools
import html
import re

from django.utils.http import parse_header_parameters

# The boundary Django's parser accepts: printable ASCII, 1 to 201 characters, not
# ending in a space (RFC 2046 allows 70; the plugin's has 40).
BOUNDARY_RE = re.compile(r"[ -~]{0,200}[!-~]")
DATA_FIELD = "data"
MAX_HEADER_BYTES = 1024  # a part's headers end within this, as Django's parser reads them


class MultipartError(ValueError):
    """The upload holds no readable report; the message is a one-line reason."""


def boundary_of(content_params: dict) -> bytes:
    boundary = content_params.get("boundary", "")
    if not BOUNDARY_RE.fullmatch(boundary):
        raise MultipartError("The multipart body could not be parsed (no usable boundary).")
    return boundary.encode("ascii")


@functools.lru_cache(maxsize=32)
def _headers(head: bytes) -> dict[str, tuple[str, dict]]:
    """A part's headers as Django's parser reads them: malformed lines are skipped.

    Remembered for the last few distinct heads (read only: callers never change the
    answer): every plugin sends the same part headers, and reading them with the email
    package's parameter parser cost as much as finding the part."""
    headers = {}
    for line in head.split(b"\r\n"):
        try:
            main, parameters = parse_header_parameters(line.decode())
            name, value = main.split(":", 1)
        except ValueError:
            continue
        headers[name] = (value, parameters)
    return headers


def _file_name(name: str | None) -> str | None:
    """The file name Django would keep (None: the part is not taken as a file)."""
    if not name:
        return None
    name = html.unescape(name).rsplit("/")[-1].rsplit("\\")[-1]
    name = "".join(char for char in name if char.isprintable())
    return None if name in {"", ".", ".."} else name


def report_part(body: bytes, boundary: bytes) -> bytes:
    """The bytes of the upload's ``data`` file part (the last one, should there be more);
    MultipartError if there is none.

    As in Django's parser, a part is complete only when a delimiter ends it and more of
    the body follows (a body cut short in the report is refused, not stored in part).
    """
    delimiter = b"--" + boundary
    found = None
    start = 0
    while (end := body.find(delimiter, start)) >= 0:
        chunk, start = body[start:end], end + len(delimiter)
        if start >= len(body):
            break  # nothing after the delimiter: Django never completes this part
        data = _file_data(chunk)
        if data is not None:
            found = data
    if found is None:
        raise MultipartError("The upload has no 'data' part.")
    return found


def _file_data(chunk: bytes) -> bytes | None:
    """The data of a chunk that is the ``data`` file part, else None."""
    end = chunk.find(b"\r\n\r\n", 0, MAX_HEADER_BYTES)
    if end < 0:
        return None
    headers = _headers(chunk[:end])
    if "content-disposition" not in headers:
        return None
    parameters = headers["content-disposition"][1]
    if parameters.get("name", "").strip() != DATA_FIELD:
        return None
    if _file_name(parameters.get("filename")) is None:
        return None  # a plain form field, not the uploaded file the plugin sends
    data = chunk[end + 4 :]
    # The line break before the delimiter belongs to the multipart framing.
    if data.endswith(b"\n"):
        data = data[:-1]
    if data.endswith(b"\r"):
        data = data[:-1]
    encoding = headers.get("content-transfer-encoding", ("", {}))[0].strip()
    if encoding == "base64":
        try:
            return base64.b64decode(b"".join(data.split()))
        except (binascii.Error, ValueError):
            raise MultipartError("The 'data' part is not valid base64.") from None
    return data
