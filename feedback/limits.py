"""The one body-size check of the report endpoint, made from Content-Length before
anything is read (in the view, which the report middleware also calls)."""

from django.conf import settings

from core.numbers import NumberRefused, parse_int


class BodySizeError(ValueError):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def checked_body_size(content_length: str | None) -> int:
    """The declared body size if it is acceptable; else BodySizeError with the status."""
    try:  # ASCII digits only: int() also reads other scripts' digits
        length = parse_int(content_length or "0", "Content-Length")
    except NumberRefused:
        raise BodySizeError("Content-Length is not a number.", 400) from None
    limit = settings.FEEDBACK_MAX_BODY_BYTES
    if length > limit:
        raise BodySizeError(f"The report is larger than the limit of {limit} bytes.", 413)
    if length <= 0:
        raise BodySizeError("The request has no body.", 400)
    return length
