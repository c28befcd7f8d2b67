"""The real requests a MariaDB 10.11 server sent (captured byte for byte), as the repo
keeps them for the demo, and helpers to take them apart."""

from pathlib import Path

CAPTURES = Path(__file__).resolve().parents[2] / "feedback" / "demo_data"

BOUNDARY = "--------------------------ba4f3696b39f"


def captured_requests() -> dict[str, bytes]:
    return {path.stem: path.read_bytes() for path in sorted(CAPTURES.glob("*.http"))}


def split_http(raw: bytes):
    """(request line, headers dict, body) of a captured HTTP request."""
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], headers, body


def data_part(body: bytes) -> bytes:
    """The report itself: what the plugin put in the 'data' part."""
    start = body.index(b"application/octet-stream\r\n\r\n") + len(
        b"application/octet-stream\r\n\r\n"
    )
    end = body.rindex(b"--" + BOUNDARY.encode() + b"--")
    return body[start:end]


def plugin_body(report: str | bytes) -> bytes:
    """A report wrapped exactly as the plugin wraps it."""
    if isinstance(report, str):
        report = report.encode()
    return (
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="-"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + report
        + f"--{BOUNDARY}--\r\n".encode()
    )
