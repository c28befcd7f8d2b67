"""How the site prints amounts of money and short excerpts: one home for both rules."""

from decimal import Decimal, InvalidOperation

ELLIPSIS = "…"
# currencies written with a symbol before the amount; any other shows its ISO code ("CHF 500")
CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


def money(amount, currency: str = "") -> str:
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


def excerpt(text: str, length: int) -> str:
    """``text`` cut to at most ``length`` characters on a word boundary, with "…"."""
    text = " ".join((text or "").split())
    if len(text) <= length:
        return text
    # one character more than may be kept: if it is a space, the last word is whole
    window = text[: length - len(ELLIPSIS) + 1]
    cut = window[: window.rindex(" ")] if " " in window else window[:-1]
    return cut.rstrip(" ,;:.-–—") + ELLIPSIS
