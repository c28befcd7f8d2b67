"""Parse the body of a feedback plugin report (pure: no database, no Django).

A report is ``NAME<TAB>VALUE`` rows separated by newlines, with no escaping; keys
may repeat; short reports (startup, shutdown) have a NUL after the server UID.
See docs/feedback.md for the format and the facts behind these rules.

``parse_report`` is the one validation function: the endpoint acknowledges exactly
the reports it accepts (``check_report`` gives its verdict without building the
report; property tests hold the two together), and processing stores exactly what it
returns. Every typed
value is range-checked here, so the database never refuses a parsed report.
"""

import base64
import binascii
import re
from dataclasses import dataclass, field

from feedback.dimensions import is_storage_engine
from feedback.labels import names_test_traffic

MAX_VALUE_LENGTH = 4096
MAX_NAME_LENGTH = 200
# The ranges of the columns the values are stored in (PostgreSQL integer and bigint).
INTEGER_MAX = 2**31 - 1
BIGINT_MAX = 2**63 - 1

# Rows stored in their own columns rather than in ``extra``.
TYPED_ROWS = frozenset({
    "FEEDBACK_SERVER_UID", "FEEDBACK_WHEN", "FEEDBACK_USER_INFO", "VERSION", "Uname_sysname",
    "Uname_release", "Uname_distribution", "Uname_machine", "Cpu_count", "Mem_total",
    "THREAD_HANDLING",
})  # fmt: skip
# The rows that count something: FEATURE_*, "Collation used X" and "<plugin> used".
COUNTER_PREFIXES = ("FEATURE_", "Collation used ")
COUNTER_SUFFIX = " used"
TWO_TABS_RE = re.compile(r"\t[^\n]*\t")
# Numbers are ASCII digits only: int() and \d also read full-width or Arabic-Indic
# digits (U+FF11 U+FF12 as 12), which no server writes.
VERSION_RE = re.compile(
    r"^(?P<major>[0-9]{1,3})\.(?P<minor>[0-9]{1,3})\.(?P<patch>[0-9]{1,4})(?P<suffix>.*)$"
)
WHOLE_NUMBER_RE = re.compile(r"-?[0-9]+")


def is_test_traffic(user_info: str) -> bool:
    """Whether FEEDBACK_USER_INFO marks MariaDB's own test suite (``feedback.labels``)."""
    return names_test_traffic(user_info, frozenset())


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
        return is_test_traffic(self.user_info)


def report_text(data: bytes) -> str:
    """The report as text, as every reading of it sees it (NUL bytes dropped)."""
    return data.replace(b"\x00", b"").decode("utf-8", errors="replace")


def first_values(data: bytes) -> dict[str, str]:
    """Each row's name and its first value (names repeat: INNODB_PAGE_SIZE), the last
    row's name first; raises ReportError if the body is not a report."""
    return _first_values_of(report_text(data))


def _first_values_of(text: str) -> dict[str, str]:
    # The usual full report: every line NAME<TAB>VALUE with one tab, and no CR. Read with
    # built-ins over the whole text (a Python loop over its thousand lines cost several
    # times as much); anything else goes line by line, which also names the fault.
    body = text.rstrip("\n")  # the plugin ends its report with a blank line
    if body and "\r" not in body and body.count("\t") == body.count("\n") + 1:
        fields = body.replace("\n", "\t").split("\t")
        names, values = fields[0::2], fields[1::2]
        # As many tabs as lines, and none with two: one tab on every line.
        if (
            not TWO_TABS_RE.search(body)
            and all(names)
            and max(map(len, names)) <= MAX_NAME_LENGTH
            and not any(map(str.isspace, names))
        ):
            if max(map(len, values)) > MAX_VALUE_LENGTH:
                values = [value[:MAX_VALUE_LENGTH] for value in values]
            return dict(zip(reversed(names), reversed(values), strict=True))
    return dict(reversed(_read_rows_line_by_line(text)))


def _read_rows_line_by_line(text: str) -> list[tuple[str, str]]:
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        name, tab, value = line.partition("\t")
        if not tab:
            raise ReportError(f"line {number} is not a NAME<TAB>VALUE row")
        if not name or len(name) > MAX_NAME_LENGTH:
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


def checked_int(name: str, value: str, maximum: int) -> int | None:
    """A whole number from 0 to ``maximum``; None for an empty value; else ReportError."""
    value = value.strip()
    if not value:
        return None
    if not WHOLE_NUMBER_RE.fullmatch(value):
        raise ReportError(f"{name[:60]} is not a whole number: {value[:40]!r}")
    number = int(value)
    if not 0 <= number <= maximum:
        raise ReportError(f"{name[:60]} {value[:40]} is out of range (0 to {maximum})")
    return number


def counter_names(names) -> list[str]:
    """The names of counting rows among ``names`` (none holds a line break), found by
    searching them joined into one text: a report has a thousand names and a hundred
    counters, and a test per name cost more than the rest of the parse."""
    joined = "\n" + "\n".join(names) + "\n"
    found = []
    for prefix in COUNTER_PREFIXES:
        start = joined.find("\n" + prefix)
        while start >= 0:
            end = joined.index("\n", start + 1)
            found.append(joined[start + 1 : end])
            start = joined.find("\n" + prefix, end)
    end = joined.find(COUNTER_SUFFIX + "\n")
    while end >= 0:
        end += len(COUNTER_SUFFIX)
        found.append(joined[joined.rindex("\n", 0, end) + 1 : end])
        end = joined.find(COUNTER_SUFFIX + "\n", end)
    return list(dict.fromkeys(found))


def _header(first: dict[str, str]) -> tuple[str, str, str]:
    """The server UID, the kind of report and FEEDBACK_USER_INFO, checked."""
    if "FEEDBACK_SERVER_UID" not in first:
        raise ReportError("the report has no FEEDBACK_SERVER_UID row")
    uid = validate_server_uid(first["FEEDBACK_SERVER_UID"])
    when = first.get("FEEDBACK_WHEN", "").strip()
    if when and when not in {"startup", "shutdown"}:
        raise ReportError(f"unknown FEEDBACK_WHEN value {when[:40]!r}")
    return uid, when or "full", first.get("FEEDBACK_USER_INFO", "")


def check_report(data: bytes) -> bool:
    """parse_report's verdict without the report: raises the ReportError parse_report
    would raise, else tells whether the report is MariaDB's own test traffic.

    The endpoint's check before it stores the bytes (processing parses them): it checks
    every value parse_report checks, in the same order, and builds none of the rest. A
    plainly well-formed report (``_plain_header``) is checked without reading its rows.
    """
    first = _plain_header(data)
    text = report_text(data)
    if first is None:
        first = _first_values_of(text)
    _, kind, user_info = _header(first)
    if kind == "full":
        checked_int("Cpu_count", first.get("Cpu_count", ""), INTEGER_MAX)
        checked_int("Mem_total", first.get("Mem_total", ""), BIGINT_MAX)
        if _any_counter_not_plainly_valid(text):
            # No typed row has a counter's name, so these are parse_report's counters.
            rows = _first_values_of(text)
            for name in counter_names(rows):
                checked_int(name, rows[name], BIGINT_MAX)
    return is_test_traffic(user_info)


# The shape of a report's bytes, one byte per byte: tab and newline kept, "z" for what
# could make the text read otherwise (a carriage return, a NUL, whitespace str.strip()
# drops but a space, any byte of a character beyond ASCII), "a" for anything else. A
# plainly well-formed report's shape has no "z" and is lines of a name of 1 to
# MAX_NAME_LENGTH bytes, a tab and the rest, which one match of the whole shape tells (a
# few microseconds, where splitting the text into its thousand rows took a hundred).
_SHAPE = bytes(
    byte if byte in b"\t\n"
    else ord("z") if byte in b"\r\x00\x0b\x0c\x1c\x1d\x1e\x1f" or byte > 0x7F
    else ord("a")
    for byte in range(256)
)  # fmt: skip
_PLAIN_ROW = rf"a{{1,{MAX_NAME_LENGTH}}}+\t[^\n]*+"
_PLAIN_ROWS_RE = re.compile(rf"(?:{_PLAIN_ROW}\n)*+{_PLAIN_ROW}".encode())
_HEADER_ROWS = (
    "FEEDBACK_SERVER_UID",
    "FEEDBACK_WHEN",
    "FEEDBACK_USER_INFO",
    "Cpu_count",
    "Mem_total",
)


def _plain_header(data: bytes) -> dict[str, str] | None:
    """The first values of the rows the check reads, when the report is plainly
    well-formed: ASCII without a carriage return or a NUL, a FEEDBACK_SERVER_UID row, and
    every line a row with a name of at most MAX_NAME_LENGTH. Every reading of such a
    report sees those rows alike (a line of blanks around its tab, which a reading line
    by line skips, is no row the check reads), and none refuses its lines. None
    otherwise: the rows are then read as parse_report reads them."""
    body = data.rstrip(b"\n")  # the plugin ends its report with a blank line
    shape = body.translate(_SHAPE)
    if b"z" in shape or not _PLAIN_ROWS_RE.fullmatch(shape):
        return None
    lines = b"\n" + body + b"\n"
    first = {}
    for name in _HEADER_ROWS:
        row = f"\n{name}\t".encode()
        start = lines.find(row)
        if start >= 0:
            start += len(row)
            value = lines[start : lines.index(b"\n", start)]
            first[name] = value[:MAX_VALUE_LENGTH].decode("ascii")
    # Without it, a reading line by line might find no row at all, and say so instead.
    return first if "FEEDBACK_SERVER_UID" in first else None


# A counting row's value that checked_int accepts whatever follows: 1 to 18 ASCII digits
# (below BIGINT_MAX) ending its line. Two searches find a row whose name holds " used"
# followed by its tab or by a blank and more name ("<plugin> used", "Collation used X"),
# or "FEATURE_", followed by anything else: every counter of COUNTER_PREFIXES and
# COUNTER_SUFFIX ("Collation used " holds the suffix). Neither is tied to the start of a
# line (a search for a line break first stops at each of the thousand), and finding more
# rows than the counting ones only sends a report to the exact check.
_PLAIN_COUNT = r"(?![0-9]{1,18}(?:\n|\Z))"
_UNPLAIN_COUNTER_RES = (
    re.compile(r" used(?: [^\t\n]*)?\t" + _PLAIN_COUNT),
    re.compile(r"FEATURE_[^\t\n]*\t" + _PLAIN_COUNT),
)


def _any_counter_not_plainly_valid(text: str) -> bool:
    """False when every counting row of the text, first value or not, holds a count
    checked_int accepts: then no counter need be checked one by one. Two searches of
    the text for the rows' fixed parts, instead of finding the counters among a thousand
    names and checking each (about half the check's time on a full report)."""
    return any(pattern.search(text) for pattern in _UNPLAIN_COUNTER_RES)


def parse_report(data: bytes) -> ParsedReport:
    first = first_values(data)
    uid, kind, user_info = _header(first)
    report = ParsedReport(server_uid=uid, kind=kind, user_info=user_info)
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
    report.cpu_count = checked_int("Cpu_count", first.get("Cpu_count", ""), INTEGER_MAX)
    report.memory_bytes = checked_int("Mem_total", first.get("Mem_total", ""), BIGINT_MAX)
    report.thread_handling = first.get("THREAD_HANDLING", "")[:60]

    # Counters (FEATURE_*, "Collation used X", "<plugin> used") are whole numbers too; the
    # other rows without a column of their own are kept as they are.
    report.extra = dict(first)
    for name in TYPED_ROWS:
        report.extra.pop(name, None)
    for name in counter_names(report.extra):
        count = checked_int(name, report.extra.pop(name), BIGINT_MAX)
        if count is None:
            continue
        if name.startswith("FEATURE_"):
            report.features[name] = count
        elif name.startswith("Collation used "):
            report.collations[name.removeprefix("Collation used ")] = count
        else:
            report.plugins[name.removesuffix(" used")] = count
    report.engines = sorted(
        name for name, used in report.plugins.items() if used > 0 and is_storage_engine(name)
    )
    return report
