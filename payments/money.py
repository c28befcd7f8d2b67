"""Amounts between the site and Stripe, and the currencies the site sells: one home.

Stripe writes an amount in the currency's minor unit: cents for EUR and USD (5000 is
50.00), but the yen itself for a zero-decimal currency (5000 JPY is 5000 yen) and
thousandths for a three-decimal one. ``minor_units`` turns a site amount into Stripe's,
``from_minor_units`` an amount from an event back into the site's; both take the currency.

The site sells what the apps say it sells: each app that takes money registers a function
giving its currency codes (donations: settings.DONATION_CURRENCIES; sponsors: its tiers'
currencies), so payments names no app. An event in any other currency is refused.
"""

from collections.abc import Callable, Iterable
from decimal import Decimal

# https://docs.stripe.com/currencies#zero-decimal
ZERO_DECIMAL_CURRENCIES = frozenset(
    [
        "BIF",
        "CLP",
        "DJF",
        "GNF",
        "JPY",
        "KMF",
        "KRW",
        "MGA",
        "PYG",
        "RWF",
        "UGX",
        "VND",
        "VUV",
        "XAF",
        "XOF",
        "XPF",
    ]
)
# https://docs.stripe.com/currencies#three-decimal (amounts in thousandths, ending in 0)
THREE_DECIMAL_CURRENCIES = frozenset(["BHD", "JOD", "KWD", "OMR", "TND"])
# The largest amount the site takes in one payment, in any currency.
LARGEST_AMOUNT = Decimal("99999999.99")

_sold: list[Callable[[], Iterable[str]]] = []


def minor_unit_digits(currency: str) -> int:
    """How many decimals the currency's minor unit has: 0 for JPY, 2 for EUR, 3 for KWD."""
    code = currency.upper()
    if code in ZERO_DECIMAL_CURRENCIES:
        return 0
    if code in THREE_DECIMAL_CURRENCIES:
        return 3
    return 2


def minor_unit_factor(currency: str) -> int:
    return int(10 ** minor_unit_digits(currency))  # int ** int is typed Any


def minor_units(amount: Decimal, currency: str) -> int:
    """The amount as Stripe writes it in ``currency`` (50.00 EUR -> 5000, 5000 JPY -> 5000)."""
    return int((Decimal(amount) * minor_unit_factor(currency)).to_integral_value())


def from_minor_units(value: int, currency: str) -> Decimal:
    """An amount from a Stripe object back in the site's units, exact and with the
    currency's own decimals (5000 in EUR -> 50.00, 5 in KWD -> 0.005, 5000 in JPY -> 5000)."""
    return Decimal(int(value)).scaleb(-minor_unit_digits(currency))


def register_currencies(source: Callable[[], Iterable[str]]) -> None:
    """``source()`` gives the currency codes an app sells in (read at each check)."""
    if source not in _sold:
        _sold.append(source)


def sold_currencies() -> set[str]:
    """Upper-case codes of every currency some app sells in."""
    return {code.upper() for source in _sold for code in source()}
