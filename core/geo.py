"""Country of an address, looked up offline.

The lookup table ships inside the ``iptocc`` package (a maintained, regularly released
IP-to-country database), so upgrading the package updates the data. Only the ISO 3166-1
alpha-2 code leaves this module: callers never store or log the address itself.
"""

import iptocc


def country_of(address: str) -> str | None:
    """The two-letter country code for ``address``, or None when it is unknown,
    private, loopback or not an address at all."""
    if not address:
        return None
    try:
        return iptocc.country_code(address.strip().strip("[]"))
    except (ValueError, TypeError):
        return None
