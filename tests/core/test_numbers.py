"""core.numbers, the one reader of numbers from outside: ASCII digits only (issue 58).

Python's int(), float(), Decimal(), str.isdigit(), ``\\d`` and Django's date parsing all
read other scripts' digits; each property below feeds the parser every such character."""

import string
from datetime import date
from decimal import Decimal

import pytest
from django import forms
from hypothesis import given
from hypothesis import strategies as st

from core import numbers

# Every character Python takes for a digit or a number that is not 0-9: superscripts,
# circled and full-width digits, Arabic-Indic, Devanagari, mathematical digits, fractions.
STRAY = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: c not in string.digits)
EXAMPLES = ["²", "①", "⁹", "３", "٣", "۵", "७", "𝟘", "½"]


@st.composite
def with_a_stray_digit(draw, ascii_text):
    """An ASCII-written value with one character replaced by, or one inserted as, a
    character that looks like a digit and is not 0-9."""
    text = draw(ascii_text)
    where = draw(st.integers(0, len(text)))
    stray = draw(STRAY)
    replace = draw(st.booleans()) and where < len(text)
    return text[:where] + stray + text[where + (1 if replace else 0) :]


def ascii_integers():
    return st.integers(0, 10**12).map(str)


def test_pythons_own_readers_take_other_digits_which_is_why_this_exists():
    assert int("３") == 3 and int("٣") == 3 and "²".isdigit()
    with pytest.raises(ValueError):
        int("²")


@pytest.mark.parametrize("stray", EXAMPLES)
def test_each_reported_character_is_refused_with_a_reason(stray):
    with pytest.raises(numbers.NumberRefused) as refused:
        numbers.parse_int(stray, "days", minimum=1, maximum=3650)
    assert "“days” must be a whole number written with the digits 0-9" in str(refused.value)
    assert f"“{stray}” (U+{ord(stray):04X}) is not one of them" in str(refused.value)


@given(st.integers(0, 10**17))
def test_an_ascii_integer_reads_as_itself(number):
    assert numbers.parse_int(str(number), "n") == number
    assert numbers.is_ascii_integer(str(number))


@given(with_a_stray_digit(ascii_integers()))
def test_an_integer_with_any_other_digit_is_refused(text):
    with pytest.raises(numbers.NumberRefused):
        numbers.parse_int(text, "page")
    assert not numbers.is_ascii_integer(text)
    with pytest.raises(numbers.NumberRefused):
        numbers.page_number({"page": text})


@given(st.text(max_size=30))
def test_any_text_is_an_integer_or_a_refusal(text):
    try:
        value = numbers.parse_int(text, "n")
    except numbers.NumberRefused:
        return
    assert str(value) == text


def test_signs_bounds_and_sizes():
    assert numbers.parse_int("-3", "n", minimum=-5) == -3
    for text in ["-3", "+3", " 3", "3 ", "3.0", "1e3", "1_000", "", "9" * 19]:
        with pytest.raises(numbers.NumberRefused):
            numbers.parse_int(text, "n", minimum=0)
    with pytest.raises(numbers.NumberRefused, match="at most 3650"):
        numbers.parse_int("3651", "days", maximum=3650)
    assert numbers.page_number({}) == 1 and numbers.page_number({"page": "7"}) == 7
    with pytest.raises(numbers.NumberRefused, match="at least 1"):
        numbers.page_number({"page": "0"})


@given(st.dates(min_value=date(1000, 1, 1)))
def test_every_calendar_day_reads_back_and_a_stray_digit_never_does(day):
    text = day.isoformat()
    assert numbers.parse_date(text, "run_date") == day
    assert numbers.parse_month(text[:7], "month") == day.replace(day=1)


@given(with_a_stray_digit(st.dates(min_value=date(1000, 1, 1)).map(date.isoformat)))
def test_a_date_with_any_other_digit_is_refused(text):
    with pytest.raises(numbers.NumberRefused):
        numbers.parse_date(text, "run_date")


def test_dates_that_are_not_in_the_calendar_are_refused_by_name():
    assert numbers.parse_date("2028-02-29", "run_date") == date(2028, 2, 29)
    with pytest.raises(numbers.NumberRefused, match="2027-02-29 is not a day of the calendar"):
        numbers.parse_date("2027-02-29", "run_date")
    for text in ["2026-1-05", "20261105", "2026-11-05T00:00", "２０２６-１１-０５"]:
        with pytest.raises(numbers.NumberRefused):
            numbers.parse_date(text, "run_date")


@given(with_a_stray_digit(st.decimals(0, 10**6, places=2).map(str)))
def test_an_amount_with_any_other_digit_is_refused(text):
    with pytest.raises(numbers.NumberRefused):
        numbers.parse_decimal(text, "amount")


def test_amounts_read_in_ascii():
    assert numbers.parse_decimal("25.50", "amount") == Decimal("25.50")


PRINTED = {
    "11.4.9": ("11.4.9", ""),
    "10.11.19-MariaDB-0+deb12u1": ("10.11.19", "-MariaDB-0+deb12u1"),
    "11.4.10-MariaDB-log": ("11.4.10", "-MariaDB-log"),
    "5.5.5-10.6.12-MariaDB-0ubuntu0.22.04.1-log": ("10.6.12", "-MariaDB-0ubuntu0.22.04.1-log"),
    "MariaDB 10.2.8": ("10.2.8", ""),
    "MariaDB-5.5.21-beta": ("5.5.21", "-beta"),
    "10.5.20-MariaDB-1:10.5.20+maria~ubu2004": ("10.5.20", "-MariaDB-1:10.5.20+maria~ubu2004"),
}


@pytest.mark.parametrize("printed", PRINTED)
def test_a_version_is_the_release_it_names_however_it_was_printed(printed):
    version = numbers.parse_version(printed)
    assert (version.release, version.suffix) == PRINTED[printed]


@pytest.mark.parametrize("printed", ["１１.４.９", "1¹.4.9", "11.4.9²", "11", "11.4.9a", "x11.4"])
def test_a_version_not_written_in_ascii_digits_is_refused(printed):
    with pytest.raises(numbers.NumberRefused, match="must start with a release"):
        numbers.parse_version(printed)


VERSIONS = st.lists(st.integers(0, 200), min_size=2, max_size=4).map(
    lambda parts: ".".join(map(str, parts))
)


@given(with_a_stray_digit(VERSIONS))
def test_a_version_with_any_other_digit_is_refused(text):
    with pytest.raises(numbers.NumberRefused):
        numbers.parse_version(text)


@given(st.lists(st.text(max_size=20) | VERSIONS, max_size=8))
def test_any_stored_versions_sort_without_error(texts):
    sorted(texts, key=numbers.version_key)


def test_versions_sort_by_what_they_name():
    texts = ["11.4.10", "11.4.9", "10.11.19-MariaDB-0+deb12u1", "1¹.4.9", "10.6.20"]
    assert sorted(texts, key=numbers.version_key) == [
        "10.6.20",
        "10.11.19-MariaDB-0+deb12u1",
        "11.4.9",
        "11.4.10",
        "1¹.4.9",
    ]


class AmountForm(forms.Form):
    count = numbers.IntegerField(required=False)
    amount = numbers.DecimalField(required=False, decimal_places=2)
    day = numbers.DateField(required=False)


@given(
    st.sampled_from(["count", "amount", "day"]),
    with_a_stray_digit(st.sampled_from(["12", "25.50", "2026-11-22"])),
)
def test_the_form_fields_refuse_other_digits_that_djangos_would_read(field, text):
    form = AmountForm({field: text})
    assert not form.is_valid()
    assert field in form.errors


def test_the_form_fields_read_ascii_as_djangos_do():
    form = AmountForm({"count": "12", "amount": "25.50", "day": "2026-11-22"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {
        "count": 12,
        "amount": Decimal("25.50"),
        "day": date(2026, 11, 22),
    }
    assert forms.IntegerField().clean("３") == 3  # what Django's own field does
