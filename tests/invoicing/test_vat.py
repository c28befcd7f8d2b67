"""Which VAT an invoice carries (Directive 2006/112/EC, Articles 44, 196 and 226)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from invoicing import vat

OTHER_MEMBER_STATES = sorted(vat.EU_COUNTRIES - {"FI", "GR"})


@pytest.mark.parametrize("prefix", [*OTHER_MEMBER_STATES, "EL"])
def test_a_business_of_another_member_state_is_reverse_charged(prefix):
    treatment = vat.treatment(
        issuer_country="FI", rate=Decimal("25.5"), buyer_vat_number=f"{prefix} 123.456.789"
    )
    assert treatment.kind == "reverse_charge"
    assert treatment.split(Decimal(50000)) == (Decimal(50000), Decimal(0))
    assert "Reverse charge" in treatment.note and f"{prefix}123456789" in treatment.note


@pytest.mark.parametrize(
    "country, vat_number",
    [("FI", "FI12345678"), ("", ""), ("DE", ""), ("FI", ""), ("", "fi 1234-5678")],
)
def test_the_issuers_country_or_no_vat_number_pays_the_issuers_vat(country, vat_number):
    treatment = vat.treatment(
        issuer_country="FI",
        rate=Decimal("25.5"),
        buyer_country=country,
        buyer_vat_number=vat_number,
    )
    assert treatment.kind == "domestic"
    assert treatment.label == "VAT 25.5 % (included)"


@pytest.mark.parametrize("country", ["US", "CH", "GB", "NO", "JP"])
def test_a_customer_outside_the_eu_pays_no_eu_vat(country):
    treatment = vat.treatment(
        issuer_country="FI", rate=Decimal("25.5"), buyer_country=country, buyer_vat_number="CHE-1"
    )
    assert treatment.kind == "outside_eu" and treatment.rate == 0


@given(
    total=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999999.99"), places=2),
    rate=st.sampled_from(["25.5", "24", "21", "19", "0", "8.1"]),
)
def test_net_and_vat_always_add_up_to_the_total(total, rate):
    treatment = vat.treatment(issuer_country="FI", rate=Decimal(rate))
    net, tax = treatment.split(total)
    assert net + tax == total and tax >= 0 and tax == tax.quantize(Decimal("0.01"))
