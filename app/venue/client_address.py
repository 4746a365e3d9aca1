"""Where a session's client is: the organizer's own addresses, a client's network, and the
address each session came from.

Which address a session comes from is recorded once, when Flet creates the session
(:func:`remember_peer`, run as Flet's ``before_main`` by :mod:`app.venue.server`): a client can
rewrite ``page.client_ip`` later through a property patch, so that field is never read
afterwards.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from typing import Any, Final
from weakref import WeakKeyDictionary

__all__ = [
    "ORGANIZER_ADDRESSES_ENV", "Network", "organizer_networks", "is_organizer_address", "network_of",
    "remember_peer", "peer_of", "mark_network_served",
]

ORGANIZER_ADDRESSES_ENV: Final = "FARKLE_ORGANIZER_ADDRESSES"
"""A comma list of the addresses (or networks, ``10.0.0.0/24``) that count as the organizer's own."""
_DEFAULT_ORGANIZER: Final = ("127.0.0.0/8", "::1/128")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def organizer_networks(text: str | None = None) -> tuple[Network, ...]:
    """The organizer's own addresses: ``text`` (a comma list), else the environment, else loopback.

    :raises ValueError: an entry is not an address or network (named in the message).
    """
    spec = os.environ.get(ORGANIZER_ADDRESSES_ENV, "") if text is None else text
    entries = [entry.strip() for entry in spec.split(",") if entry.strip()] or list(_DEFAULT_ORGANIZER)
    networks: list[Network] = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or network for {ORGANIZER_ADDRESSES_ENV}.") from None
    return tuple(networks)


def _ip_of(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The client's address as an IP (an IPv4 one mapped into IPv6 as IPv4; a zone dropped), or None."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_organizer_address(address: str, networks: Iterable[Network] | None = None) -> bool:
    """Whether a client at ``address`` is the organizer's own device."""
    ip = _ip_of(address)
    if ip is None:
        return False
    return any(ip.version == net.version and ip in net
               for net in (organizer_networks() if networks is None else networks))


def network_of(address: str) -> str:
    """The network an address shares with its neighbours: its /24 (IPv4) or /64 (IPv6), as text;
    the address itself when it is not one (one attacker rarely holds more than such a block)."""
    ip = _ip_of(address)
    if ip is None:
        return address
    return str(ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 64}", strict=False))


_peers: WeakKeyDictionary[Any, str] = WeakKeyDictionary()
_served: list[bool] = [False]


def mark_network_served() -> None:
    """This process serves the app over HTTP: a session without a recorded address is nobody's."""
    _served[0] = True


def remember_peer(page: Any) -> None:
    """Record the session's client address as Flet set it at connection (``before_main``)."""
    _peers[page.session] = str(page.client_ip or "")


def peer_of(page: Any) -> str | None:
    """The address recorded for this page's session; None when it was not served over the network
    (the desktop window, a test harness), "" when served but unknown."""
    try:
        session = page.session
    except Exception:  # noqa: BLE001 - a page without a session has no client address
        session = None
    if session is not None and session in _peers:
        return _peers[session]
    connection = getattr(session, "connection", None)
    if connection is not None and type(connection).__module__.startswith("flet_web"):
        # served by Flet's own web server without app.venue.server (``ft.run(view=None)``, ``flet run --web``):
        # the address the connection saw, which no property patch reaches
        return str(getattr(connection, "_FletApp__client_ip", "") or "")
    return "" if _served[0] else None
