"""Where the phones at a venue reach this app: the addresses its links and QR codes carry.

Flet gives a server session's page the websocket's address (``ws://127.0.0.1:8550``),
which no camera app opens; and the organizer's own browser usually opens the app on
loopback, which no other phone reaches. So a link base is the page's http(s) address,
and when the server answers every network of the machine (``--host 0.0.0.0``) loopback
is replaced by the machine's venue address. A machine on several networks (Wi-Fi and a
cable, a VPN, a container bridge) has several: the first is the one its default route
leaves from, and the event page lists all of them to choose from.

``python -m app`` records where it serves (:func:`serve_on`); the desktop window, the
offline PWA and the tests' client-less sessions record nothing and keep their addresses.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

__all__ = ["Serving", "serve_on", "serving", "venue_addresses", "for_phones", "venue_link_bases", "link_base_of"]

_EVERY_INTERFACE: Final = frozenset({"", "0.0.0.0", "::", "[::]"})
_LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.localdomain"})
_SIOCGIFADDR: Final = 0x8915  # Linux: an interface's IPv4 address
_UNROUTED: Final = "192.0.2.1"  # TEST-NET-1 (RFC 5737): a UDP "connect" there picks the default route, sends nothing
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Serving:
    """Where this process serves the app: the address it listens on and its port."""

    host: str
    port: int

    @property
    def every_interface(self) -> bool:
        """Listening on every network of the machine (``0.0.0.0``): phones on the venue's network reach it."""
        return self.host.strip() in _EVERY_INTERFACE

    @property
    def loopback_only(self) -> bool:
        """Listening on loopback alone: no other device can open the app."""
        return _is_loopback(self.host)


_serving: list[Serving] = []


def serve_on(host: str, port: int) -> None:
    """Record where this process serves the app, before it serves anyone."""
    _serving[:] = [Serving(host, port)]


def serving() -> Serving | None:
    """Where this process serves the app; None when it does not (desktop window, PWA, a test's session)."""
    return _serving[0] if _serving else None


def _is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _reachable(address: str) -> bool:
    """An IPv4 address another device may reach: not loopback, link-local, multicast or unspecified."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified)


def _default_route_address() -> str | None:
    """The address this machine's default route leaves from (a UDP socket's "connect" sends no packet)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((_UNROUTED, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None  # no route at all: an offline laptop on a venue's Wi-Fi without internet still has its own


def _interface_addresses() -> list[str]:
    """Each network interface's IPv4 address on Linux; elsewhere the ones the host name resolves to."""
    if not sys.platform.startswith("linux"):
        try:
            return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            return []
    import fcntl
    import struct

    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def venue_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses that other devices may reach, the default route's first."""
    try:
        candidates = [_default_route_address() or "", *_interface_addresses()]
    except OSError as error:  # an unusual platform: say nothing rather than fail the organizer's page
        logger.warning("The machine's addresses could not be listed: %s", error)
        return ()
    return tuple(dict.fromkeys(address for address in candidates if _reachable(address)))


def for_phones(base: str) -> str:
    """A link base as the phones at the venue open it: ``ws(s)`` becomes ``http(s)``, and on a
    server for every network a loopback host becomes the machine's venue address.

    >>> for_phones("ws://127.0.0.1:8550"), for_phones("wss://farkle.example/app")
    ('http://127.0.0.1:8550', 'https://farkle.example/app')
    """
    parts = urlsplit(base)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    netloc = parts.netloc
    if _served_to_venue() and parts.hostname and _is_loopback(parts.hostname):
        addresses = venue_addresses()
        try:
            port = parts.port
        except ValueError:  # not a port number: the address stays as typed
            addresses = ()
        if addresses:
            netloc = addresses[0] + (f":{port}" if port else "")
    if (scheme, netloc) == (parts.scheme, parts.netloc):
        return base
    return parts._replace(scheme=scheme, netloc=netloc).geturl()


def _served_to_venue() -> bool:
    served = serving()
    return served is not None and served.every_interface


def venue_link_bases() -> tuple[str, ...]:
    """The link bases to choose from on a server for every network: one per venue address."""
    served = serving()
    if served is None or not served.every_interface:
        return ()
    return tuple(f"http://{address}:{served.port}" for address in venue_addresses())


def link_base_of(page_url: str) -> str:
    """Where phones on the same network reach the app a page was opened from (``http://host:port``;
    a server session's page knows only its websocket, ``ws://host:port``); "" in the desktop window."""
    parts = urlsplit(page_url)
    if parts.scheme.lower() not in ("http", "https", "ws", "wss") or not parts.netloc:
        return ""
    return for_phones(f"{parts.scheme}://{parts.netloc}")
