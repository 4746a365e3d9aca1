"""Organizer access: who may open an event's organizer screens, without any widget.

On a venue network every phone reaches the server (``--host 0.0.0.0``), so the organizer's
screens are kept for the organizer:

* The organizer's own addresses (loopback by default; ``--organizer-address`` or
  ``FARKLE_ORGANIZER_ADDRESSES``, a comma list of addresses or networks) open everything.
* Any other device gives the event's organizer passphrase once; it then holds a signed
  session token (in its own client storage) that expires after :data:`SESSION_SECONDS`.
* An event without a passphrase (created before passphrases, or left without one on the
  organizer's own device) opens only from an organizer address.

The passphrase is kept only as a salted scrypt hash (:func:`hash_passphrase`). A session
token is ``<event id>.<expiry>.<HMAC>`` keyed by that stored hash: it cannot be made without
the server's copy of the hash, survives a restart, and dies when the passphrase changes.
Wrong passphrases are answered after a delay that grows with the failures from that
address (:class:`Throttle`); nobody is ever locked out.

Which address a session comes from is recorded once, when Flet creates the session
(:func:`remember_peer`, run as Flet's ``before_main`` by :mod:`app.server`): a client can
rewrite ``page.client_ip`` later through a property patch, so that field is never read
afterwards.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import ipaddress
import json
import os
import sys
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol
from weakref import WeakKeyDictionary

from engine import InvalidInput

__all__ = [
    "ORGANIZER_ADDRESSES_ENV", "SESSION_SECONDS", "MIN_PASSPHRASE", "SESSIONS_KEY", "PassphraseRefused",
    "Throttle", "DeviceAccess", "Prefs", "Network",
    "check_new_passphrase", "hash_passphrase", "verify_passphrase", "issue_token", "token_valid",
    "organizer_networks", "is_organizer_address", "remember_peer", "peer_of", "mark_network_served",
    "THROTTLE",
]

ORGANIZER_ADDRESSES_ENV: Final = "FARKLE_ORGANIZER_ADDRESSES"
"""A comma list of the addresses (or networks, ``10.0.0.0/24``) that count as the organizer's own."""
SESSION_SECONDS: Final = 12 * 3600
"""How long a device stays signed in to an event after giving its passphrase."""
MIN_PASSPHRASE: Final = 4
SESSIONS_KEY: Final = "farkle.organizer.sessions"
"""The client-storage key holding the device's session tokens (``{event id: token}``)."""

_SCRYPT_N: Final = 2**14
_SCRYPT_R: Final = 8
_SCRYPT_P: Final = 1
_DEFAULT_ORGANIZER: Final = ("127.0.0.0/8", "::1/128")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class PassphraseRefused(InvalidInput):
    """A passphrase that cannot be set, or that opens nothing."""


# -- passphrases ---------------------------------------------------------------------------


def _normal(passphrase: str) -> str:
    """The passphrase as compared: Unicode-normalised, outer spaces dropped (phones add them)."""
    return unicodedata.normalize("NFKC", str(passphrase)).strip()


def check_new_passphrase(first: str, again: str) -> str:
    """The passphrase to set, when typed twice alike and long enough.

    :raises PassphraseRefused: too short, or the two differ (in words the organizer reads).
    """
    text = _normal(first)
    if len(text) < MIN_PASSPHRASE:
        raise PassphraseRefused(
            f"The organizer passphrase needs at least {MIN_PASSPHRASE} characters (a PIN of 4 digits will do); "
            f"{len(text)} given.")
    if _normal(again) != text:
        raise PassphraseRefused("The two passphrases differ: type the same one twice.")
    return text


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_passphrase(passphrase: str, *, salt: bytes | None = None, n: int = _SCRYPT_N, r: int = _SCRYPT_R,
                    p: int = _SCRYPT_P) -> str:
    """A salted scrypt hash of the passphrase, with its parameters: ``scrypt$n$r$p$salt$digest``.

    >>> stored = hash_passphrase("1234", n=2**4)
    >>> verify_passphrase("1234", stored), verify_passphrase("4321", stored), "1234" in stored
    (True, False, False)
    """
    text = _normal(passphrase)
    if len(text) < MIN_PASSPHRASE:
        raise PassphraseRefused(f"The organizer passphrase needs at least {MIN_PASSPHRASE} characters.")
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(text.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=32)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(digest)}"


def verify_passphrase(passphrase: str, stored: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from (False for no or a broken hash)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = _unb64(digest)
        given = hashlib.scrypt(_normal(passphrase).encode("utf-8"), salt=_unb64(salt), n=int(n), r=int(r),
                               p=int(p), maxmem=64 * 1024 * 1024, dklen=len(expected))
    except (ValueError, TypeError, AttributeError):
        return False
    return hmac.compare_digest(given, expected)


# -- session tokens ------------------------------------------------------------------------


def _session_key(stored_hash: str) -> bytes:
    return hmac.new(stored_hash.encode("utf-8"), b"farkle-table organizer session v1", hashlib.sha256).digest()


def _signature(tournament_id: str, expires: int, stored_hash: str) -> str:
    body = f"{tournament_id}.{expires}".encode()
    return _b64(hmac.new(_session_key(stored_hash), body, hashlib.sha256).digest())


def issue_token(tournament_id: str, stored_hash: str, now: float, seconds: int = SESSION_SECONDS) -> str:
    """A session token for the event, valid ``seconds`` from ``now``."""
    expires = int(now) + seconds
    return f"{tournament_id}.{expires}.{_signature(tournament_id, expires, stored_hash)}"


def token_valid(token: str, tournament_id: str, stored_hash: str, now: float) -> bool:
    """Whether ``token`` opens the event now: made with its current passphrase hash, not expired."""
    if not stored_hash or not isinstance(token, str):
        return False
    parts = token.rsplit(".", 2)
    if len(parts) != 3 or parts[0] != tournament_id or not parts[1].isdigit():
        return False
    expires = int(parts[1])
    if not now < expires <= now + SESSION_SECONDS + 60:
        return False
    return hmac.compare_digest(parts[2], _signature(tournament_id, expires, stored_hash))


# -- addresses -----------------------------------------------------------------------------


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


def is_organizer_address(address: str, networks: Iterable[Network] | None = None) -> bool:
    """Whether a client at ``address`` is the organizer's own device."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net
               for net in (organizer_networks() if networks is None else networks))


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
        # served by Flet's own web server without app.server (``ft.run(view=None)``, ``flet run --web``):
        # the address the connection saw, which no property patch reaches
        return str(getattr(connection, "_FletApp__client_ip", "") or "")
    return "" if _served[0] else None


# -- failed attempts -----------------------------------------------------------------------


@dataclass
class Throttle:
    """Delays the answer to a passphrase from an address that gave wrong ones: 0.5 s after the
    first failure, doubling to at most :attr:`longest` s; forgotten after :attr:`forget` s
    without a failure, and on success. Attempts from one address are answered one at a time.
    """

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    first: float = 0.5
    longest: float = 8.0
    forget: float = 900.0
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def delay(self, address: str) -> float:
        count, last = self.failures.get(address, (0, 0.0))
        if not count or self.clock() - last > self.forget:
            return 0.0
        return min(self.first * 2.0 ** (count - 1), self.longest)

    async def attempt(self, address: str, check: Callable[[], Awaitable[bool]]) -> bool:
        """Wait the address's delay, then run ``check``; count a failure or forget them on success."""
        lock = self._locks.setdefault(address, asyncio.Lock())
        async with lock:
            wait = self.delay(address)
            if wait:
                await self.sleep(wait)
            ok = await check()
            if ok:
                self.failures.pop(address, None)
            else:
                count, last = self.failures.get(address, (0, 0.0))
                if self.clock() - last > self.forget:
                    count = 0
                self.failures[address] = (count + 1, self.clock())
            return ok


THROTTLE = Throttle()
"""The process's one throttle (failures by client address)."""


# -- one device's access -------------------------------------------------------------------


class Prefs(Protocol):
    """The device's client storage (``ft.SharedPreferences``): only get and set are used."""

    async def get(self, key: str) -> Any: ...

    async def set(self, key: str, value: Any) -> bool: ...


@dataclass
class DeviceAccess:
    """What one app session (one device's tab) may open on the organizer's side.

    :param address: the client's address (None: not served over the network).
    :param organizer: the address is the organizer's own (or the app runs on the device): no gate.
    :param prefs: the device's client storage, made on first use.
    """

    address: str | None
    organizer: bool
    prefs: Callable[[], Prefs] | None = None
    clock: Callable[[], float] = time.time
    throttle: Throttle = field(default_factory=lambda: THROTTLE)
    tokens: dict[str, str] | None = None

    @classmethod
    def of_page(cls, page: Any, prefs: Callable[[], Prefs] | None = None, **options: Any) -> DeviceAccess:
        """The access of the session ``page`` belongs to (the PWA runs on the device: no gate)."""
        address = peer_of(page)
        organizer = sys.platform == "emscripten" or address is None or is_organizer_address(address)
        return cls(address, organizer, prefs, **options)

    async def _tokens(self) -> dict[str, str]:
        if self.tokens is None:
            self.tokens = {}
            if self.prefs is not None:
                try:
                    raw = await self.prefs().get(SESSIONS_KEY)
                    data = json.loads(raw) if isinstance(raw, str) else {}
                except Exception:  # noqa: BLE001 - unreadable client storage: signed out
                    data = {}
                if isinstance(data, dict):
                    self.tokens = {str(k): v for k, v in data.items() if isinstance(v, str)}
        return self.tokens

    async def _keep(self) -> None:
        if self.prefs is not None and self.tokens is not None:
            now = self.clock()
            kept = {k: v for k, v in self.tokens.items() if _unexpired(v, now)}
            self.tokens = kept
            try:
                await self.prefs().set(SESSIONS_KEY, json.dumps(kept, sort_keys=True))
            except Exception:  # noqa: BLE001 - the session then lasts as long as this tab
                pass

    async def allows(self, tournament_id: str, stored_hash: str) -> bool:
        """Whether this device opens the event now."""
        if self.organizer:
            return True
        token = (await self._tokens()).get(tournament_id, "")
        return token_valid(token, tournament_id, stored_hash, self.clock())

    async def unlocked(self, hashes: Mapping[str, str]) -> set[str]:
        """The events (of ``hashes``: id -> stored hash) this device opens now."""
        return {tid for tid, stored in hashes.items() if await self.allows(tid, stored)}

    async def sign_in(self, passphrase: str, hashes: Mapping[str, str]) -> list[str]:
        """Check the passphrase against the events' hashes (after the address's delay); the events
        it opens, each now remembered on this device for :data:`SESSION_SECONDS`.

        :raises PassphraseRefused: it opens none (the next try from this address waits longer).
        """
        matched: list[str] = []

        async def check() -> bool:
            for tid, stored in hashes.items():
                ok: bool = bool(stored) and await asyncio.to_thread(verify_passphrase, passphrase, stored)
                if ok:
                    matched.append(tid)
            return bool(matched)

        if not await self.throttle.attempt(self.address or "", check):
            raise PassphraseRefused("That passphrase opens no event here. Check it with the organizer and try "
                                    "again (each wrong try makes the next answer wait a little longer).")
        for tid in matched:
            await self.remember(tid, hashes[tid], save=False)
        await self._keep()
        return matched

    async def remember(self, tournament_id: str, stored_hash: str, save: bool = True) -> None:
        """Sign this device in to the event (it has just set or given the passphrase)."""
        if self.organizer or not stored_hash:
            return
        tokens = await self._tokens()
        tokens[tournament_id] = issue_token(tournament_id, stored_hash, self.clock())
        if save:
            await self._keep()


def _unexpired(token: str, now: float) -> bool:
    parts = token.rsplit(".", 2)
    return len(parts) == 3 and parts[1].isdigit() and int(parts[1]) > now
