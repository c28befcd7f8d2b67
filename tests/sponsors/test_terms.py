"""A term is named by its dates, from one place (``sponsors.terms.Term``): a year from its
first day to the day before the same date a year later, both days included; the next
term starts the day after. Properties over every day from 1990 to 2100, and the days a
calendar makes awkward (29 February, the 31st, the last day of a year)."""

import itertools
from datetime import date, timedelta

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sponsors.terms import Term, long_date

DAYS = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))


@given(DAYS)
@example(date(2028, 2, 29))
@example(date(2027, 12, 31))
@example(date(2027, 3, 31))
@example(date(2026, 12, 7))
def test_a_term_is_a_year_and_the_next_starts_the_day_after(first_day):
    term = Term.one_year_from(first_day)
    assert term.starts_on == first_day
    assert first_day in term and term.ends_on in term
    assert term.ends_on + timedelta(days=1) not in term
    # a year: 365 days, or 366 when it holds a 29 February
    assert term.days == (366 if _holds_29_february(term) else 365)
    following = term.following()
    assert following.starts_on == term.ends_on + timedelta(days=1)
    assert following.starts_on.year == first_day.year + 1  # no drift into another year


@given(DAYS, st.integers(min_value=2, max_value=30))
def test_renewed_terms_leave_no_day_out_and_count_no_day_twice(first_day, renewals):
    terms = [Term.one_year_from(first_day)]
    for _ in range(renewals):
        terms.append(terms[-1].following())
    for earlier, later in itertools.pairwise(terms):
        assert later.starts_on - earlier.ends_on == timedelta(days=1)
    covered = sum(term.days for term in terms)
    assert covered == (terms[-1].ends_on - first_day).days + 1


@pytest.mark.parametrize(
    ("first_day", "label", "next_label"),
    [
        (date(2026, 12, 7), "7 December 2026 – 6 December 2027", "7 December 2027 – 6 December 2028"),
        (date(2028, 2, 29), "29 February 2028 – 28 February 2029", "1 March 2029 – 28 February 2030"),
        (date(2027, 12, 31), "31 December 2027 – 30 December 2028", "31 December 2028 – 30 December 2029"),
        (date(2028, 3, 1), "1 March 2028 – 28 February 2029", "1 March 2029 – 28 February 2030"),
        (date(2031, 3, 1), "1 March 2031 – 29 February 2032", "1 March 2032 – 28 February 2033"),
        (date(2028, 1, 1), "1 January 2028 – 31 December 2028", "1 January 2029 – 31 December 2029"),
    ],
)  # fmt: skip
def test_a_term_is_written_by_its_dates(first_day, label, next_label):
    term = Term.one_year_from(first_day)
    assert term.label == str(term) == label
    assert term.following().label == next_label


@given(DAYS)
def test_a_term_stored_on_a_document_reads_back_the_same(first_day):
    term = Term.one_year_from(first_day)
    assert Term.from_dict(term.as_dict()) == term
    assert Term.from_dict(None) is None


def test_a_term_cannot_end_before_it_starts():
    with pytest.raises(ValueError, match="cannot end"):
        Term(date(2027, 1, 2), date(2027, 1, 1))


def test_days_are_written_without_a_leading_zero():
    assert long_date(date(2028, 2, 9)) == "9 February 2028"


def _holds_29_february(term: Term) -> bool:
    return any(
        date(year, 2, 29) in term
        for year in range(term.starts_on.year, term.ends_on.year + 1)
        if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    )
