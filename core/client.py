"""The client's address, as every rate limit must see it (kept: django-ipware believes
forwarding headers whatever ``REMOTE_ADDR`` sent them and checks proxies by position in
the header, so a client talking to gunicorn directly could choose its own address).

Behind a reverse proxy every request comes from the proxy's address, and the client's
is in ``X-Forwarded-For``. That header is only believed when the request comes from a
proxy we trust (``TRUSTED_PROXIES``: addresses or networks, none by default); anyone
else could write any address into it. The list is read from the right, where each
trusted proxy appended the address it saw, and the first address that is not itself a
trusted proxy is the client.
"""

import ipaddress
from functools import cache, lru_cache
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

from django.conf import settings
from django.http import HttpRequest


@cache
def _networks(proxies: tuple[str, ...]) -> tuple[IPv4Network | IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy.strip(), strict=False) for proxy in proxies)


@lru_cache(maxsize=4096)  # the same few addresses (the proxy's, the clients') again and again
def _address(text: str) -> IPv4Address | IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def is_trusted_proxy(address: IPv4Address | IPv6Address | None) -> bool:
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    return address is not None and any(address in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The address of the client that sent ``request`` (never a forged one)."""
    remote: str = request.META.get("REMOTE_ADDR", "")
    address = _address(remote)
    if not is_trusted_proxy(address):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed(forwarded.split(",")):
        hop_address = _address(hop)
        if hop_address is None:  # garbage where a trusted proxy wrote: stop believing the list
            break
        address = hop_address
        if not is_trusted_proxy(address):
            break
    return str(address)
