import pytest

from feedback.ratelimit import parse_rate


@pytest.mark.parametrize(
    ("rate", "expected"),
    [("300/m", (300, 60)), ("5/s", (5, 1)), ("10/5m", (10, 300)), ("1000/d", (1000, 86400))],
)
def test_rates_read_like_django_ratelimit(rate, expected):
    assert parse_rate(rate) == expected


def test_a_misspelt_rate_is_refused():
    with pytest.raises(ValueError, match="300/m"):
        parse_rate("300 per minute")
