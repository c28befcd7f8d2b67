"""The pure rules: what SELECT VERSION() prints read as a release, CVSS vectors read out in
words, the range rule and the advisories file's checks."""

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from security.advisory_file import IN_REPO_ADVISORIES, AdvisoryFileError, parse_advisories
from security.cvss import BASE_METRICS, VectorError, in_words, read_vector
from security.ranges import Span
from security.server_version import VersionStringError, parse_server_version


@pytest.mark.parametrize(
    "printed, version, series",
    [
        ("10.6.12-MariaDB-0ubuntu0.22.04.1-log", "10.6.12", "10.6"),
        ("11.4.10-MariaDB-log", "11.4.10", "11.4"),
        ("10.5.20-MariaDB-1:10.5.20+maria~ubu2004", "10.5.20", "10.5"),
        ("5.5.5-10.11.6-MariaDB-0+deb12u1", "10.11.6", "10.11"),
        ("  10.3.39-MariaDB  ", "10.3.39", "10.3"),
        ("12.3.2", "12.3.2", "12.3"),
        ("10.6.9-MariaDB", "10.6.9", "10.6"),
        ("5.5.68-MariaDB", "5.5.68", "5.5"),
    ],
)
def test_what_real_servers_print_is_read_as_its_release(printed, version, series):
    parsed = parse_server_version(printed)
    assert (parsed.version, parsed.series) == (version, series)


# What distributions and builds append after the release number.
SUFFIXES = st.one_of(
    st.just(""),
    st.sampled_from(
        [
            "-MariaDB",
            "-MariaDB-log",
            "-MariaDB-debug",
            "-MariaDB-0ubuntu0.22.04.1-log",
            "-MariaDB-1:10.5.20+maria~ubu2004",
            "-MariaDB-1.el9",
            "-MariaDB-cll-lve",
            "-MariaDB-enterprise",
            "+maria~deb11",
            " MariaDB Server",
        ]
    ),
    st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(["-", "+", "~", "_", " "]),
        st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60),
    ),
)
NUMBERS = st.tuples(st.integers(0, 999), st.integers(0, 999), st.integers(0, 9999))


@given(NUMBERS, SUFFIXES)
def test_any_release_with_any_build_suffix_is_read_as_that_release(numbers, suffix):
    major, minor, patch = numbers
    parsed = parse_server_version(f"{major}.{minor}.{patch}{suffix}")
    assert parsed.key == numbers
    assert parsed.series == f"{major}.{minor}"


@given(NUMBERS, SUFFIXES)
def test_the_protocol_prefix_5_5_5_is_skipped(numbers, suffix):
    major, minor, patch = numbers
    parsed = parse_server_version(f"5.5.5-{major}.{minor}.{patch}{suffix}")
    assert parsed.key == numbers


@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_with_a_message(text):
    try:
        parsed = parse_server_version(text)
    except VersionStringError as error:
        assert str(error)
    else:
        assert text.strip().startswith(parsed.version) or text.strip().startswith("5.5.5-")


@pytest.mark.parametrize(
    "printed",
    ["", "   ", "MariaDB 10.6.12", "10.6", "10.6.x-MariaDB", "v10.6.12", "10.6.12.4",
     "10.6.123456", "1000.1.1", "ten.six", "10..6.1", "10.6.12" + "-x" * 200],
)  # fmt: skip
def test_strings_without_a_release_number_at_the_start_are_refused(printed):
    with pytest.raises(VersionStringError):
        parse_server_version(printed)


def test_a_vector_is_read_out_in_words_in_the_specifications_order():
    assert in_words("CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H") == (
        "attack vector: network, attack complexity: low, privileges required: low, "
        "user interaction: none, scope: unchanged, confidentiality impact: none, "
        "integrity impact: none, availability impact: high"
    )
    assert read_vector("CVSS:3.0/AV:P/AC:H/PR:H/UI:R/S:C/C:L/I:H/A:N")[0] == (
        "attack vector",
        "physical",
    )
    assert dict(read_vector("CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:C/C:L/I:L/A:L"))["attack vector"] == (
        "adjacent network"
    )


@given(
    st.fixed_dictionaries(
        {m: st.sampled_from(sorted(values)) for m, (_, values) in BASE_METRICS.items()}
    ),
    st.randoms(use_true_random=False),
    st.sampled_from(["3.0", "3.1"]),
)
def test_every_valid_vector_is_read_whatever_the_order_of_its_metrics(chosen, random, version):
    parts = [f"{metric}:{value}" for metric, value in chosen.items()]
    random.shuffle(parts)
    words = read_vector(f"CVSS:{version}/" + "/".join(parts))
    assert words == [(name, values[chosen[m]]) for m, (name, values) in BASE_METRICS.items()]


@pytest.mark.parametrize(
    "vector",
    ["", "AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
     "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N", "CVSS:3.1/AV:X/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H",
     "CVSS:3.1/AV:N/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H/E:F"],
)  # fmt: skip
def test_broken_vectors_are_refused(vector):
    with pytest.raises(VectorError):
        read_vector(vector)


@given(
    st.tuples(st.integers(0, 50), st.integers(0, 50)).map(sorted),
    st.integers(0, 60),
    st.booleans(),
    st.booleans(),
)
def test_a_range_includes_introduced_and_excludes_fixed(bounds, patch, from_start, unfixed):
    first, fix = bounds
    span = Span(None if from_start else (10, 6, first), None if unfixed else (10, 6, fix + 1))
    expected = (from_start or patch >= first) and (unfixed or patch < fix + 1)
    assert span.includes((10, 6, patch)) is expected


def test_versions_compare_by_number_not_by_text():
    assert Span(None, (10, 6, 10)).includes((10, 6, 9))
    assert not Span((10, 6, 10), None).includes((10, 6, 9))


def real_file():
    return json.loads(IN_REPO_ADVISORIES.read_text())


def test_the_in_repo_file_is_read_whole():
    records = parse_advisories(real_file())
    assert len(records) == 100
    assert sum(len(r.ranges) for r in records) == 538
    by_id = {r.advisory_id: r for r in records}
    spans = {s.series: s for s in by_id["CVE-2026-44171"].ranges}
    assert (spans["10.6"].introduced, spans["10.6"].fixed) == ("10.6.1", "10.6.26")
    # "introduced": "0" is the start of the series
    assert by_id["CVE-2026-47064"].ranges[0].introduced is None


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: a["affected"][0].update(fixed="10.11.17"), "not a release of 10.6"),
        (lambda a: a["affected"][0].update(introduced="10.6.30"), "not after introduced"),
        (lambda a: a["affected"][0].update(basis="blog"), "basis"),
        (lambda a: a["affected"].append(dict(a["affected"][0])), "listed twice"),
        (lambda a: a["severity"].update(cvss_v3_vector="CVSS:3.1/AV:Q"), "AV"),
        (lambda a: a["severity"].update(rating="SEVERE"), "rating"),
        (lambda a: a.update(id="CVE-26-1"), "not an id"),
        (lambda a: a.update(published="yesterday"), "CVE-2026-47064"),
    ],
)
def test_a_broken_file_is_refused_naming_the_problem(change, message):
    data = copy.deepcopy(real_file())
    change(data["advisories"][0])
    with pytest.raises(AdvisoryFileError, match=message):
        parse_advisories(data)
