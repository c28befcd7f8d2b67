import pytest

from core.geo import country_of


@pytest.mark.parametrize(
    ("address", "country"),
    [
        ("8.8.8.8", "US"),
        ("193.166.3.2", "FI"),
        ("2001:4860:4860::8888", "US"),
        ("[2001:4860:4860::8888]", "US"),
    ],
)
def test_public_addresses_map_to_their_country(address, country):
    assert country_of(address) == country


@pytest.mark.parametrize("address", ["", "127.0.0.1", "10.1.2.3", "::1", "not an address"])
def test_private_loopback_and_garbage_have_no_country(address):
    assert country_of(address) is None
