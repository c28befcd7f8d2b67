"""How the site prints amounts of money, days, file sizes and short excerpts: one home for
each rule."""

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

ELLIPSIS = "…"
# currencies written with a symbol before the amount; any other shows its ISO code ("CHF 500")
CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


def money(amount: Decimal | int | float | str | None, currency: str = "") -> str:
    """``money(100000, "EUR")`` is "€100,000": thousands separators, cents only when
    there are any, the currency's symbol or code in front."""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError, TypeError):
        return ""
    places = 0 if value == value.to_integral_value() else 2
    number = f"{abs(value):,.{places}f}"
    code = (currency or "").upper()
    symbol = CURRENCY_SYMBOLS.get(code)
    text = f"{symbol}{number}" if symbol else f"{code} {number}".strip()
    return f"−{text}" if value < 0 else text


def long_date(day: date) -> str:
    """ "7 December 2026": a day in prose, mails and PDFs (templates write it "j F Y")."""
    return f"{day.day} {day:%B %Y}"


BINARY_UNITS = ["KiB", "MiB", "GiB", "TiB"]


def file_size(size: Any) -> str:
    """Bytes in binary units, labelled as such: 96,761,750 bytes is "92.3 MiB" (Django's
    filesizeformat divides by 1024 as well but says "MB"). A no-break space keeps the
    number and its unit together."""
    try:
        value: float = int(size)
    except (TypeError, ValueError):
        return ""
    if abs(value) < 1024:
        return f"{value}\xa0byte" if value == 1 else f"{value}\xa0bytes"
    for unit in BINARY_UNITS:
        value /= 1024
        # compare what is printed: 1,048,575 bytes is "1.0 MiB", not "1024.0 KiB"
        if abs(round(value, 1)) < 1024 or unit == BINARY_UNITS[-1]:
            return f"{value:.1f}\xa0{unit}"
    return ""  # not reached: the last unit always returns


def excerpt(text: str, length: int) -> str:
    """``text`` cut to at most ``length`` characters on a word boundary, with "…"."""
    text = " ".join((text or "").split())
    if len(text) <= length:
        return text
    # one character more than may be kept: if it is a space, the last word is whole
    window = text[: length - len(ELLIPSIS) + 1]
    cut = window[: window.rindex(" ")] if " " in window else window[:-1]
    return cut.rstrip(" ,;:.-–—") + ELLIPSIS
