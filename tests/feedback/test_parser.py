import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedback.parser import (
    ReportError,
    _read_rows_line_by_line,
    check_report,
    counter_names,
    first_values,
    parse_report,
)
from tests.feedback.captures import data_part, split_http
from tests.feedback.test_fuzz import REAL_BODIES, mutate


def report_of(fixture_requests, name):
    return data_part(split_http(fixture_requests[name])[2])


def test_startup_report_with_its_nul_after_the_uid(fixture_requests):
    data = report_of(fixture_requests, "startup")
    assert b"=\x00\n" in data
    report = parse_report(data)
    assert report.server_uid == "BRQuphxhO/ivzmSTEp4J9xb4UxI="
    assert report.kind == "startup"
    assert report.user_info == "faketime-e2e"
    assert report.version == ""


def test_shutdown_report(fixture_requests):
    report = parse_report(report_of(fixture_requests, "shutdown"))
    assert report.kind == "shutdown"
    assert report.server_uid == "BRQuphxhO/ivzmSTEp4J9xb4UxI="


def test_full_report_golden_values(fixture_requests):
    report = parse_report(report_of(fixture_requests, "full-10.11-debian12"))
    assert report.kind == "full"
    assert (report.version_major, report.version_minor, report.version_patch) == (10, 11, 19)
    assert report.version == "10.11.19-MariaDB-0+deb12u1"
    assert report.version_suffix == "-MariaDB-0+deb12u1"
    assert report.os == "Linux"
    assert report.distribution == "os-release: Debian GNU/Linux 12 (bookworm)"
    assert report.architecture == "x86_64"
    assert report.cpu_count == 2
    assert report.memory_bytes == 25276514304
    assert report.thread_handling == "one-thread-per-connection"
    assert report.engines == ["Aria", "InnoDB", "MEMORY"]
    assert report.plugins["InnoDB"] == 3
    assert report.features["FEATURE_JSON"] == 1
    assert report.features["FEATURE_CHECK_CONSTRAINT"] == 1
    assert report.collations["utf8mb3_bin"] == 81
    assert report.extra["VERSION_COMMENT"] == "Debian 12"
    assert not report.is_test


def test_repeated_keys_keep_the_first_value_and_values_keep_arbitrary_bytes():
    uid = b"BRQuphxhO/ivzmSTEp4J9xb4UxI="
    data = (
        b"FEEDBACK_SERVER_UID\t" + uid + b"\nINNODB_PAGE_SIZE\t16384\nINNODB_PAGE_SIZE\t1\n"
        b"VERSION_COMMENT\tweird \xff\xfe bytes\tand a tab\n\n"
    )
    report = parse_report(data)
    assert report.extra["INNODB_PAGE_SIZE"] == "16384"
    assert report.extra["VERSION_COMMENT"].startswith("weird ")
    assert report.extra["VERSION_COMMENT"].endswith("\tand a tab")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty"),
        (b"hello world\n", "not a NAME<TAB>VALUE row"),
        (b"VERSION\t10.11.6\n", "no FEEDBACK_SERVER_UID"),
        (b"FEEDBACK_SERVER_UID\tshort=\n", "28 characters"),
        (b"FEEDBACK_SERVER_UID\t" + b"!" * 27 + b"=\n", "base64"),
        (
            b"FEEDBACK_SERVER_UID\tBRQuphxhO/ivzmSTEp4J9xb4UxI=\nFEEDBACK_WHEN\tlater\n",
            "FEEDBACK_WHEN",
        ),
    ],
)
def test_malformed_reports_get_a_reason(data, reason):
    with pytest.raises(ReportError, match=reason):
        parse_report(data)


def test_uid_check_and_rows():
    report = parse_report(b"FEEDBACK_SERVER_UID\tBRQuphxhO/ivzmSTEp4J9xb4UxI=\x00\n")
    assert report.server_uid == "BRQuphxhO/ivzmSTEp4J9xb4UxI="
    assert first_values(b"A\t1\r\n\nB\t\n") == {"A": "1", "B": ""}
    assert first_values(b"A\t1\nB\t2\nA\t3\n\n") == {"A": "1", "B": "2"}


def test_a_uid_with_non_ascii_characters_is_refused_not_crashed_on():
    # Found by the fuzz test: base64 decoding raised ValueError on non-ASCII text.
    with pytest.raises(ReportError):
        parse_report("FEEDBACK_SERVER_UID\tBRQuphxhO/ivzmSTEp4J9xb4Ux\u00e9=\n".encode())


ROW_ALPHABET = st.sampled_from(
    [
        b"\t",
        b"\n",
        b"\r",
        b" ",
        b"\x00",
        b"\x0c",
        b"\xff",
        b"\xc3\xa9",
        b"a",
        b"N",
        b"1",
        b"X" * 201,
        b"V" * 4097,
    ]
)


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(ROW_ALPHABET, max_size=40), base=st.sampled_from([b"", b"A\t1\nB\t2\n"]))
def test_the_fast_row_reading_agrees_with_the_line_by_line_one(pieces, base):
    data = base + b"".join(pieces)
    text = data.replace(b"\x00", b"").decode("utf-8", errors="replace")

    def verdict(split, argument):
        try:
            return split(argument)
        except ReportError as error:
            return str(error)

    def line_by_line(text):
        return dict(reversed(_read_rows_line_by_line(text)))

    assert verdict(first_values, data) == verdict(line_by_line, text)


UID_ROW = "FEEDBACK_SERVER_UID\tBRQuphxhO/ivzmSTEp4J9xb4UxI=\n"


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("Cpu_count\t999999999992", r"Cpu_count 999999999992 is out of range \(0 to 2147483647\)"),
        ("Cpu_count\t-4", r"Cpu_count -4 is out of range"),
        ("Cpu_count\tfour", r"Cpu_count is not a whole number: 'four'"),
        ("Mem_total\t99999999999999999999", r"Mem_total 99999999999999999999 is out of range"),
        ("Mem_total\t-1", r"Mem_total -1 is out of range"),
        ("FEATURE_JSON\t-3", r"FEATURE_JSON -3 is out of range"),
        ("Collation used utf8mb4_bin\t1e9", r"Collation used utf8mb4_bin is not a whole number"),
        ("InnoDB used\t" + "9" * 30, r"InnoDB used 9+ is out of range"),
    ],
)
def test_every_typed_value_is_range_checked(row, reason):
    with pytest.raises(ReportError, match=reason):
        parse_report(f"{UID_ROW}VERSION\t11.4.2-MariaDB\n{row}\n".encode())


# Digits of every script but ASCII's: int() reads them (full-width 12 is 12), a server never writes them.
OTHER_DIGITS = st.characters(categories=["Nd"]).filter(lambda c: not c.isascii())
COUNTED_ROWS = st.sampled_from(["Cpu_count", "Mem_total", "FEATURE_JSON", "InnoDB used"])


@settings(max_examples=300, deadline=None)
@given(
    name=COUNTED_ROWS,
    before=st.text(alphabet="0123456789", max_size=3),
    digit=OTHER_DIGITS,
    after=st.text(alphabet=st.characters(categories=["Nd"]), max_size=3),
)
def test_only_ascii_digits_are_numbers(name, before, digit, after):
    """Issue 47, item 13: Cpu_count in full-width digits was stored as 12."""
    data = f"{UID_ROW}VERSION\t11.4.2-MariaDB\n{name}\t{before}{digit}{after}\n".encode()
    for check in (check_report, parse_report):  # the endpoint's check and processing
        with pytest.raises(ReportError, match=f"{name} is not a whole number"):
            check(data)


@settings(max_examples=200, deadline=None)
@given(digit=OTHER_DIGITS, position=st.integers(0, 2))
def test_a_version_with_other_digits_has_no_number(digit, position):
    parts = ["11", "4", "2"]
    parts[position] = digit
    report = parse_report(f"{UID_ROW}VERSION\t{'.'.join(parts)}-MariaDB\n".encode())
    assert report.version_major is None and report.version_patch is None


@settings(max_examples=100, deadline=None)
@given(name=COUNTED_ROWS, number=st.integers(0, 2147483647))
def test_ascii_digits_are_read(name, number):
    report = parse_report(f"{UID_ROW}VERSION\t11.4.2-MariaDB\n{name}\t{number}\n".encode())
    read = {
        "Cpu_count": report.cpu_count,
        "Mem_total": report.memory_bytes,
        "FEATURE_JSON": report.features.get("FEATURE_JSON"),
        "InnoDB used": report.plugins.get("InnoDB"),
    }
    assert read[name] == number


def test_the_largest_values_the_columns_hold_are_accepted():
    report = parse_report(
        f"{UID_ROW}Cpu_count\t2147483647\nMem_total\t{2**63 - 1}\nFEATURE_GIS\t0\n".encode()
    )
    assert (report.cpu_count, report.memory_bytes) == (2147483647, 2**63 - 1)
    assert report.features == {"FEATURE_GIS": 0}


@pytest.mark.parametrize(
    "data",
    [
        UID_ROW.encode() + b"\x00\x00\x00\tvalue\n",  # a name made of NULs
        UID_ROW.encode() + b"N" * 201 + b"\tvalue\n",  # a name over 200 characters
        UID_ROW.encode() + b"FEEDBACK_WHEN\treport\n",  # the plugin only sends startup/shutdown
    ],
)
def test_rows_processing_cannot_store_are_refused_by_the_parser(data):
    with pytest.raises(ReportError):
        parse_report(data)


REAL_REPORTS = [data_part(body) for body in REAL_BODIES]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_real_reports_mutated_read_the_same_fast_and_line_by_line(data):
    report = mutate(data.draw(st.sampled_from(REAL_REPORTS)), data)
    text = report.replace(b"\x00", b"").decode("utf-8", errors="replace")
    try:
        expected = dict(reversed(_read_rows_line_by_line(text)))
    except ReportError as error:
        expected = str(error)
    try:
        assert first_values(report) == expected
    except ReportError as error:
        assert str(error) == expected


def test_the_full_captured_reports_take_the_fast_reading(monkeypatch):
    def refuse(text):
        raise AssertionError("read line by line")

    monkeypatch.setattr("feedback.parser._read_rows_line_by_line", refuse)
    full = [report for report in REAL_REPORTS if b"FEEDBACK_WHEN" not in report]
    assert full
    for report in full:
        assert len(first_values(report)) > 100


NAME_PIECES = st.sampled_from(["FEATURE_", "Collation used ", " used", "used", "x", " ", "\t", "é"])


@settings(max_examples=300, deadline=None)
@given(names=st.lists(st.lists(NAME_PIECES, max_size=4).map("".join), max_size=12, unique=True))
def test_counter_names_are_the_names_with_a_counting_prefix_or_suffix(names):
    expected = {
        name
        for name in names
        if name.startswith(("FEATURE_", "Collation used ")) or name.endswith(" used")
    }
    found = counter_names(names)
    assert set(found) == expected and len(found) == len(expected)


def verdict_of(check, data):
    try:
        return check(data)
    except ReportError as error:
        return f"refused: {error}"


def parse_verdict(data):
    return verdict_of(lambda data: parse_report(data).is_test, data)


TYPED_VALUES = st.sampled_from(
    ["", " ", "0", "7", "-1", "+3", " 12 ", "1e3", "x", "٣", "9" * 19, "9" * 20, "mysql-test"]
)
ROW_NAMES = st.sampled_from(
    [
        "Cpu_count",
        "Mem_total",
        "FEATURE_JSON",
        "Collation used utf8mb4_bin",
        "InnoDB used",
        "FEEDBACK_WHEN",
        "FEEDBACK_USER_INFO",
        "FEEDBACK_SERVER_UID",
        "VERSION",
        "Other",
    ]
)


@settings(max_examples=400, deadline=None)
@given(rows=st.lists(st.tuples(ROW_NAMES, TYPED_VALUES), max_size=8))
def test_the_endpoints_check_gives_the_parsers_verdict_on_every_typed_value(rows):
    data = (UID_ROW + "".join(f"{name}\t{value}\n" for name, value in rows)).encode()
    assert verdict_of(check_report, data) == parse_verdict(data)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_endpoints_check_gives_the_parsers_verdict_on_mutated_real_reports(data):
    report = mutate(data.draw(st.sampled_from(REAL_REPORTS)), data)
    assert verdict_of(check_report, report) == parse_verdict(report)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(ROW_ALPHABET, max_size=40))
def test_the_endpoints_check_gives_the_parsers_verdict_on_hostile_bytes(pieces):
    data = UID_ROW.encode() + b"".join(pieces)
    assert verdict_of(check_report, data) == parse_verdict(data)


def test_the_endpoints_check_accepts_the_captures_and_tells_test_traffic():
    for report in REAL_REPORTS:
        assert check_report(report) is parse_report(report).is_test
    assert check_report(f"{UID_ROW}FEEDBACK_USER_INFO\tmysql-test \n".encode()) is True


def test_the_endpoints_check_finds_a_bad_count_in_every_counting_row_of_a_real_report():
    """The check looks at the counters one by one only when a search of the text finds a
    counting row that is not plainly a count: every counter of a real report, made
    negative or not a number, must still be refused, as the parser refuses it."""
    report = max(REAL_REPORTS, key=len)
    text = "\n" + report.decode()
    names = counter_names(first_values(report))
    assert len(names) > 50
    for name in names:
        for bad_value in ("-1", "x", " 99999999999999999999"):
            bad = text.replace(f"\n{name}\t", f"\n{name}\t{bad_value}", 1)[1:].encode()
            verdict = verdict_of(check_report, bad)
            assert verdict.startswith(f"refused: {name[:60]}"), (name, verdict)
            assert verdict == parse_verdict(bad)


def test_the_endpoints_check_reads_no_rows_of_a_plainly_well_formed_report(monkeypatch):
    """The captured full reports are checked from their shape and a few searches: the
    check must not split a thousand rows, which cost twice the rest of it."""

    full = [report for report in REAL_REPORTS if b"FEEDBACK_WHEN" not in report]
    assert full
    expected = [parse_report(report).is_test for report in full]

    def refuse(text):
        raise AssertionError("rows read")

    monkeypatch.setattr("feedback.parser._first_values_of", refuse)
    assert [check_report(report) for report in full] == expected


FULL_REPORT = max(REAL_REPORTS, key=len)


def full_report_with(row: bytes, *, at: str = "end") -> bytes:
    """The largest captured report with ``row`` added after its first line or at its end."""
    first, rest = FULL_REPORT.split(b"\n", 1)
    if at == "start":
        return first + b"\n" + row + rest
    return FULL_REPORT.rstrip(b"\n") + b"\n" + row + b"\n"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # The first of two rows with one name counts, wherever the other is.
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-test\n", at="start"), True),
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-test"), False),
        (full_report_with(b"Cpu_count\tmany\n", at="start"), "refused: Cpu_count"),
        (full_report_with(b"Cpu_count\tmany"), False),
        (full_report_with(b"Mem_total\t-1\n", at="start"), "refused: Mem_total"),
        (full_report_with(b"FEEDBACK_WHEN\tlater\n", at="start"), "refused: unknown"),
        # Names at the limit and one over it.
        (full_report_with(b"N" * 200 + b"\tvalue"), False),
        (full_report_with(b"N" * 201 + b"\tvalue"), "refused: line"),
        # Lines the shape does not pass: read row by row, with the parser's verdict.
        (full_report_with(b" FEEDBACK_USER_INFO\tmysql-test\n", at="start"), False),
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-test\r\n", at="start"), True),
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-test\x0b\n", at="start"), True),
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-\x00test\n", at="start"), True),
        (full_report_with("FEEDBACK_USER_INFO\tmysql-tést\n".encode(), at="start"), False),
        (full_report_with(b"\n \t \n\tvalue\n", at="start"), "refused: line"),
        (full_report_with(b"no tab here"), "refused: line"),
        (full_report_with(b"two\ttabs\there"), False),
        # A value is the rest of its line, tabs and all.
        (full_report_with(b"FEEDBACK_USER_INFO\t\tmysql-test\t\n", at="start"), True),
        (full_report_with(b"FEEDBACK_USER_INFO\tmysql-test\tmore\n", at="start"), False),
        (full_report_with(b" \t \n", at="start"), False),
        (b" \t \n\tvalue\n", "refused: line 2 has no usable name"),
        (b" \t \n \n", "refused: the report is empty"),
        (b"Other\tx\n", "refused: the report has no FEEDBACK_SERVER_UID row"),
        (full_report_with(b"\n\n\n"), False),
        (full_report_with(b"FEATURE_JSON\t1 2"), False),  # not its first value
        (full_report_with(b"FEATURE_JSON\t1 2\n", at="start"), "refused: FEATURE_JSON"),
    ],
)
def test_the_endpoints_check_on_rows_around_the_plain_shape(data, expected):
    verdict = verdict_of(check_report, data)
    assert verdict == parse_verdict(data)
    if isinstance(expected, str):
        assert verdict.startswith(expected), verdict
    else:
        assert verdict is expected
