"""Money, file sizes and excerpts are printed one way everywhere (issue #18)."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from pytest_django.asserts import assertContains

from core.formatting import excerpt, file_size, money
from tests.sponsors.factories import TierFactory


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (100000, "EUR", "€100,000"),
        (Decimal("100000.00"), "eur", "€100,000"),
        (Decimal("1234.5"), "USD", "$1,234.50"),
        (Decimal("25.00"), "GBP", "£25"),
        (Decimal("1500000"), "CHF", "CHF 1,500,000"),
        (Decimal("-15.00"), "EUR", "−€15"),
        (999, "", "999"),
        (None, "EUR", ""),
    ],
)
def test_money(amount, currency, expected):
    assert money(amount, currency) == expected


def test_the_money_filter_in_a_template():
    template = Template("{% load site_tags %}{{ price|money:currency }} a year")
    assert template.render(Context({"price": Decimal("50000.00"), "currency": "EUR"})) == (
        "€50,000 a year"
    )


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (96_761_750, "92.3\xa0MiB"),  # Django's filesizeformat says "92.3 MB"
        (123_456_789, "117.7\xa0MiB"),
        (1, "1\xa0byte"),
        (1023, "1023\xa0bytes"),
        (1024, "1.0\xa0KiB"),
        (1_048_575, "1.0\xa0MiB"),  # not "1024.0 KiB"
        (5 * 1024**3 + 512 * 1024**2, "5.5\xa0GiB"),
        (3 * 1024**5, "3072.0\xa0TiB"),
        (None, ""),
        ("junk", ""),
    ],
)
def test_file_sizes_are_binary_and_say_so(size, expected):
    assert file_size(size) == expected


def test_the_file_size_filter_in_a_template():
    template = Template("{% load site_tags %}{{ size|file_size }}")
    assert template.render(Context({"size": 96_761_750})) == "92.3\xa0MiB"


SENTENCE = "The foundation sustains and delivers MariaDB Server independently"


def test_an_excerpt_is_cut_on_a_word_with_an_ellipsis():
    # 30 characters would end inside "delivers"
    assert SENTENCE[:30] == "The foundation sustains and de"
    assert excerpt(SENTENCE, 30) == "The foundation sustains and…"
    assert len(excerpt(SENTENCE, 30)) <= 30


def test_an_excerpt_keeps_a_last_word_that_fits_exactly():
    assert excerpt(SENTENCE, 28) == "The foundation sustains and…"
    assert excerpt("Short enough", 40) == "Short enough"
    assert excerpt("one, two, three", 10) == "one, two…"  # no dangling comma
    assert excerpt("Supercalifragilistic", 8) == "Superca…"


def test_the_excerpt_filter_in_a_template():
    template = Template("{% load site_tags %}{{ text|excerpt:30 }}")
    assert template.render(Context({"text": SENTENCE})) == "The foundation sustains and…"


@pytest.mark.django_db
def test_sponsor_tiers_show_prices_with_separators_and_currency(client):
    TierFactory(annual_price=Decimal("100000"), currency="EUR")
    assertContains(
        client.get("/sponsors/"),
        '<p class="tier-price"><strong>€100,000</strong> a year, VAT included</p>',
        html=True,
    )
