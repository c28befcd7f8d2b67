"""Parse the body of a feedback plugin report (pure: no database, no Django).

A report is ``NAME<TAB>VALUE`` rows separated by newlines, with no escaping; keys
may repeat; short reports (startup, shutdown) have a NUL after the server UID.
See docs/feedback.md for the format and the facts behind these rules.
"""

import base64
import binascii
import re
from dataclasses import dataclass, field

MAX_VALUE_LENGTH = 4096

# Storage engines among the plugins the report lists ("<name> used <count>").
STORAGE_ENGINES = {
    "ARCHIVE", "ARIA", "BLACKHOLE", "COLUMNSTORE", "CONNECT", "CSV", "FEDERATED",
    "FEDERATEDX", "INNODB", "MEMORY", "MERGE", "MRG_MYISAM", "MROONGA", "MYISAM",
    "OQGRAPH", "PERFORMANCE_SCHEMA", "ROCKSDB", "S3", "SEQUENCE", "SPHINX", "SPIDER",
    "TOKUDB", "XTRADB",
}  # fmt: skip
VERSION_RE = re.compile(
    r"^(?P<major>\d{1,3})\.(?P<minor>\d{1,3})\.(?P<patch>\d{1,4})(?P<suffix>.*)$"
)


class ReportError(ValueError):
    """The body is not a feedback report; the message is a one-line reason."""


@dataclass
class ParsedReport:
    server_uid: str
    kind: str  # startup, shutdown or full
    user_info: str = ""
    version: str = ""
    version_major: int | None = None
    version_minor: int | None = None
    version_patch: int | None = None
    version_suffix: str = ""
    os: str = ""
    os_release: str = ""
    distribution: str = ""
    architecture: str = ""
    cpu_count: int | None = None
    memory_bytes: int | None = None
    thread_handling: str = ""
    engines: list[str] = field(default_factory=list)
    plugins: dict[str, int] = field(default_factory=dict)
    features: dict[str, int] = field(default_factory=dict)
    collations: dict[str, int] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def is_test(self) -> bool:
        return self.user_info == "mysql-test"


def read_rows(data: bytes) -> list[tuple[str, str]]:
    """Split a report into (name, value) rows; raises ReportError if it is not one."""
    text = data.replace(b"\x00", b"").decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    # The usual full report: every line a NAME<TAB>VALUE row. Whole-list passes are several
    # times faster than the line-by-line loop below, which handles (and names) the rest.
    parts = [line.partition("\t") for line in lines]
    if parts and all(
        tab and name and len(name) <= 200 and not name.isspace() for name, tab, _ in parts
    ):
        if "\r" in text:
            return [(name, value.rstrip("\r")[:MAX_VALUE_LENGTH]) for name, _, value in parts]
        return [(name, value[:MAX_VALUE_LENGTH]) for name, _, value in parts]
    return _read_rows_line_by_line(text)


def _read_rows_line_by_line(text: str) -> list[tuple[str, str]]:
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        name, tab, value = line.partition("\t")
        if not tab:
            raise ReportError(f"line {number} is not a NAME<TAB>VALUE row")
        if not name or len(name) > 200:
            raise ReportError(f"line {number} has no usable name")
        rows.append((name, value[:MAX_VALUE_LENGTH]))
    if not rows:
        raise ReportError("the report is empty")
    return rows


def validate_server_uid(uid: str) -> str:
    """A server UID is the base64 of a SHA-1 digest: 28 characters ending in '='."""
    uid = uid.strip()
    if len(uid) != 28 or not uid.isascii():
        raise ReportError("FEEDBACK_SERVER_UID is not 28 characters of base64")
    try:
        if len(base64.b64decode(uid, validate=True)) != 20:
            raise ReportError("FEEDBACK_SERVER_UID is not a base64 SHA-1 digest")
    except binascii.Error as error:
        raise ReportError("FEEDBACK_SERVER_UID is not valid base64") from error
    return uid


# After a line break: a line that is not blank and has no tab, or a line starting with a tab.
# Anchoring on the literal "\n" lets the regex engine skip from line to line.
BAD_ROW = re.compile(rb"\n(?:[ \r\x00]*+[^\t\n \r\x00][^\t\n]*+(?=\n|\Z)|\t)")
UID_ROW = re.compile(rb"(?:^|\n)FEEDBACK_SERVER_UID\t([^\n]*)")


def server_uid_of(data: bytes) -> str:
    """The quick check done before a report is acknowledged (the endpoint's hot path).

    Same verdicts as ``read_rows`` on the row shape, without building the rows.
    """
    bad_line = BAD_ROW.search(b"\n" + data)
    if bad_line is not None:
        number = data.count(b"\n", 0, bad_line.start()) + 1
        if bad_line.group() == b"\n\t":
            raise ReportError(f"line {number} has no usable name")
        raise ReportError(f"line {number} is not a NAME<TAB>VALUE row")
    match = UID_ROW.search(data)
    if match is None:
        if not data.strip(b" \r\n\x00"):
            raise ReportError("the report is empty")
        raise ReportError("the report has no FEEDBACK_SERVER_UID row")
    uid = match.group(1).replace(b"\x00", b"").rstrip(b"\r")
    return validate_server_uid(uid.decode("utf-8", errors="replace"))


def _int_or_none(value: str) -> int | None:
    try:
        return int(value.strip())
    except (TypeError, ValueError):
        return None


def parse_report(data: bytes) -> ParsedReport:
    rows = read_rows(data)
    first: dict[str, str] = {}
    for name, value in rows:
        first.setdefault(name, value)
    if "FEEDBACK_SERVER_UID" not in first:
        raise ReportError("the report has no FEEDBACK_SERVER_UID row")
    uid = validate_server_uid(first["FEEDBACK_SERVER_UID"])

    when = first.get("FEEDBACK_WHEN", "").strip()
    if when and when not in {"startup", "shutdown"}:
        raise ReportError(f"unknown FEEDBACK_WHEN value {when[:40]!r}")
    report = ParsedReport(
        server_uid=uid, kind=when or "full", user_info=first.get("FEEDBACK_USER_INFO", "")
    )
    if report.kind != "full":
        return report

    report.version = first.get("VERSION", "")[:80]
    match = VERSION_RE.match(report.version)
    if match:
        report.version_major = int(match["major"])
        report.version_minor = int(match["minor"])
        report.version_patch = int(match["patch"])
        report.version_suffix = match["suffix"][:60]
    report.os = first.get("Uname_sysname", "")[:60]
    report.os_release = first.get("Uname_release", "")[:120]
    report.distribution = first.get("Uname_distribution", "")[:200]
    report.architecture = first.get("Uname_machine", "")[:40]
    report.cpu_count = _int_or_none(first.get("Cpu_count", ""))
    report.memory_bytes = _int_or_none(first.get("Mem_total", ""))
    report.thread_handling = first.get("THREAD_HANDLING", "")[:60]

    known = {
        "FEEDBACK_SERVER_UID", "FEEDBACK_WHEN", "FEEDBACK_USER_INFO", "VERSION", "Uname_sysname",
        "Uname_release", "Uname_distribution", "Uname_machine", "Cpu_count", "Mem_total",
        "THREAD_HANDLING",
    }  # fmt: skip
    for name, value in rows:
        if name.startswith("FEATURE_"):
            count = _int_or_none(value)
            if count is not None:
                report.features[name] = count
        elif name.startswith("Collation used "):
            count = _int_or_none(value)
            if count is not None:
                report.collations[name.removeprefix("Collation used ")] = count
        elif name.endswith(" used"):
            count = _int_or_none(value)
            if count is not None:
                report.plugins[name.removesuffix(" used")] = count
        elif name not in known and name not in report.extra:
            report.extra[name] = value
    report.engines = sorted(
        name
        for name, used in report.plugins.items()
        if used > 0 and name.upper() in STORAGE_ENGINES
    )
    return report
