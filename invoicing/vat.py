"""Which VAT an invoice carries (pure rules; prices include VAT where it is due).

The EU VAT Directive (Council Directive 2006/112/EC) sets the cases this site meets when
it sells a sponsorship, a service to a business:

- a business customer with a VAT number of another member state: the place of supply is
  the customer's country (Article 44) and the customer accounts for the VAT (Article 196);
  the invoice shows no VAT, the customer's VAT number and the words "Reverse charge"
  (Article 226, points 4 and 11a);
- a customer outside the EU: the supply is not taxed in the EU (Article 44);
- anyone else (the issuer's own country, or no VAT number): the issuer's VAT.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

# VAT number prefixes of the member states (Greece writes EL, not its ISO code GR).
EU_COUNTRIES = frozenset(
    [
        "AT",
        "BE",
        "BG",
        "CY",
        "CZ",
        "DE",
        "DK",
        "EE",
        "ES",
        "FI",
        "FR",
        "GR",
        "HR",
        "HU",
        "IE",
        "IT",
        "LT",
        "LU",
        "LV",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SE",
        "SI",
        "SK",
    ]
)
VAT_PREFIX_COUNTRY = {"EL": "GR"}
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Treatment:
    kind: str  # "domestic", "reverse_charge" or "outside_eu"
    rate: Decimal
    label: str  # the VAT line's words
    note: str  # the sentence the law asks for, or ""

    def split(self, total: Decimal) -> tuple[Decimal, Decimal]:
        """(net, VAT) of a VAT-inclusive total, to the cent."""
        total = Decimal(total)
        tax = (total * self.rate / (100 + self.rate)).quantize(CENT, rounding=ROUND_HALF_UP)
        return total - tax, tax


def normalised_vat_number(value: str) -> str:
    return "".join(ch for ch in (value or "").upper() if ch.isalnum())


def vat_number_country(vat_number: str) -> str:
    """The member state a VAT number belongs to ("DE123456789" -> "DE"), or ""."""
    prefix = normalised_vat_number(vat_number)[:2]
    country = VAT_PREFIX_COUNTRY.get(prefix, prefix)
    return country if country in EU_COUNTRIES else ""


def treatment(
    *, issuer_country: str, rate: Decimal, buyer_country: str = "", buyer_vat_number: str = ""
) -> Treatment:
    issuer_country = issuer_country.upper()
    vat_country = vat_number_country(buyer_vat_number)
    if vat_country and vat_country != issuer_country:
        return Treatment(
            "reverse_charge",
            Decimal(0),
            "VAT 0 %: reverse charge",
            f"Reverse charge: the customer ({normalised_vat_number(buyer_vat_number)}) accounts "
            "for the VAT (Council Directive 2006/112/EC, Articles 44 and 196).",
        )
    buyer_country = (buyer_country or vat_country).upper()
    if buyer_country and buyer_country not in EU_COUNTRIES:
        return Treatment(
            "outside_eu",
            Decimal(0),
            "VAT 0 %: not subject to EU VAT",
            "Not subject to EU VAT: the service is supplied to a customer outside the EU "
            "(Council Directive 2006/112/EC, Article 44).",
        )
    rate = Decimal(rate)
    return Treatment("domestic", rate, f"VAT {rate.normalize():f} % (included)", "")
