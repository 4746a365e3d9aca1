"""Organizer access: who may open an event's organizer screens, without any widget.

On a venue network every phone reaches the server (``--host 0.0.0.0``), so the organizer's
screens are kept for the organizer:

* The organizer's own addresses (loopback by default; ``--organizer-address`` or
  ``FARKLE_ORGANIZER_ADDRESSES``, a comma list of addresses or networks) open everything.
* Any other device gives the event's organizer passphrase once; it then holds a signed
  session token (in its own client storage) that expires after :data:`SESSION_SECONDS`.
* An event without a passphrase (created before passphrases, or left without one on the
  organizer's own device) opens only from an organizer address.

:func:`route_access` decides what an organizer route shows a device (the screen, the
passphrase asked first, or "organizer only"); the gate screen only draws that decision.

The passphrase is kept only as a salted scrypt hash (:func:`hash_passphrase`). A session
token is ``<event id>.<expiry>.<HMAC>`` keyed by that stored hash: it cannot be made without
the server's copy of the hash, survives a restart, and dies when the passphrase changes.
Wrong passphrases are limited as a bank limits PIN tries (:class:`SignInGuard`): a few
per device, per network (/24, IPv6 /64), per event and overall, then that scope is paused
(longer each time, at most an hour) and every device trying it is told why and for how long.
Answers never wait on each other; the organizer's own addresses never go through it.

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
import math
import os
import sys
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol
from weakref import WeakKeyDictionary

from urllib.parse import unquote

from engine import CodeDamaged, InvalidInput

__all__ = [
    "ORGANIZER_ADDRESSES_ENV", "SESSION_SECONDS", "MIN_PASSPHRASE", "SESSIONS_KEY", "PassphraseRefused",
    "Limit", "LIMITS", "FailedTries", "SignInGuard", "DeviceAccess", "Prefs", "Network",
    "check_new_passphrase", "passphrase_problem", "hash_passphrase", "verify_passphrase", "meets_rule",
    "issue_token", "token_valid", "organizer_networks", "is_organizer_address", "network_of", "remember_peer",
    "peer_of", "mark_network_served", "GUARD", "OrganizerEvents", "RouteAccess", "route_target", "route_access",
]

ORGANIZER_ADDRESSES_ENV: Final = "FARKLE_ORGANIZER_ADDRESSES"
"""A comma list of the addresses (or networks, ``10.0.0.0/24``) that count as the organizer's own."""
SESSION_SECONDS: Final = 12 * 3600
"""How long a device stays signed in to an event after giving its passphrase."""
MIN_PASSPHRASE: Final = 8
"""A new passphrase's least length: with :data:`LIMITS` (about 10 tries an hour per event) even 8 digits
take centuries to guess; older events kept 4+ and are asked to set a new one."""
LEGACY_MIN_PASSPHRASE: Final = 4
"""The least length before the rule above: such stored passphrases still open their event."""
_RULE_MARK: Final = "rule8"
"""Ends a hash made of a passphrase that met :func:`passphrase_problem`'s rule (an older hash has no mark)."""
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


def passphrase_problem(text: str) -> str | None:
    """Why ``text`` is too easy to guess as an organizer passphrase, or None.

    Too short (under :data:`MIN_PASSPHRASE` characters), or a run an attacker tries first:
    one character repeated or a straight sequence (``11111111``, ``12345678``, ``hgfedcba``).

    >>> passphrase_problem("harbour 9") is None, passphrase_problem("87654321") is not None
    (True, True)
    """
    text = _normal(text)
    if len(text) < MIN_PASSPHRASE:
        return (f"The organizer passphrase needs at least {MIN_PASSPHRASE} characters (two words and a number "
                f"will do); {len(text)} given.")
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:])}
    if len(steps) == 1 and steps <= {-1, 0, 1}:
        return "The organizer passphrase is one character repeated or a straight run (like 12345678): choose another."
    return None


def check_new_passphrase(first: str, again: str) -> str:
    """The passphrase to set, when typed twice alike and hard enough to guess (:func:`passphrase_problem`).

    :raises PassphraseRefused: too easy, or the two differ (in words the organizer reads).
    """
    text = _normal(first)
    problem = passphrase_problem(text)
    if problem is not None:
        raise PassphraseRefused(problem)
    if _normal(again) != text:
        raise PassphraseRefused("The two passphrases differ: type the same one twice.")
    return text


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_passphrase(passphrase: str, *, salt: bytes | None = None, n: int = _SCRYPT_N, r: int = _SCRYPT_R,
                    p: int = _SCRYPT_P) -> str:
    """A salted scrypt hash of the passphrase, with its parameters: ``scrypt$n$r$p$salt$digest``, then
    ``$rule8`` when the passphrase meets today's rule (so :func:`meets_rule` can tell without it).

    >>> stored = hash_passphrase("harbour 9", n=2**4)
    >>> verify_passphrase("harbour 9", stored), verify_passphrase("harbour 8", stored), "harbour" in stored
    (True, False, False)
    >>> meets_rule(stored), meets_rule(hash_passphrase("1234", n=2**4))
    (True, False)
    """
    text = _normal(passphrase)
    if len(text) < LEGACY_MIN_PASSPHRASE:
        raise PassphraseRefused(f"The organizer passphrase needs at least {MIN_PASSPHRASE} characters.")
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(text.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=32)
    mark = f"${_RULE_MARK}" if passphrase_problem(text) is None else ""
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(digest)}{mark}"


def meets_rule(stored: str) -> bool:
    """Whether the stored hash was made of a passphrase meeting today's rule (older events' may be short)."""
    return stored.endswith(f"${_RULE_MARK}")


def verify_passphrase(passphrase: str, stored: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from (False for no or a broken hash)."""
    try:
        scheme, n, r, p, salt, digest, *mark = stored.split("$")
        if scheme != "scrypt" or mark not in ([], [_RULE_MARK]):
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


def network_of(address: str) -> str:
    """The network an address shares with its neighbours: its /24 (IPv4) or /64 (IPv6), as text;
    the address itself when it is not one (one attacker rarely holds more than such a block)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
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
        # served by Flet's own web server without app.server (``ft.run(view=None)``, ``flet run --web``):
        # the address the connection saw, which no property patch reaches
        return str(getattr(connection, "_FletApp__client_ip", "") or "")
    return "" if _served[0] else None


# -- failed attempts -----------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """How many wrong passphrases a scope takes before it is paused, and for how long.

    :param allowed: wrong tries in a row (since the last pause) before the pause.
    :param pause: the first pause, in seconds; each further one doubles, up to ``longest``.
    :param forget: seconds without a wrong try after which the scope starts afresh.
    :param refusal: what a device trying during the pause is told (``{wait}``: "N minutes").
    """

    allowed: int
    pause: float
    longest: float
    forget: float
    refusal: str


LIMITS: Final = {
    "device": Limit(5, 60.0, 3600.0, 3600.0,
                    "Too many wrong passphrases from this device; try again in {wait}."),
    "network": Limit(10, 300.0, 3600.0, 7200.0,
                     "Too many wrong passphrases from this part of the network; try again in {wait}."),
    "event": Limit(10, 900.0, 3600.0, 7200.0,
                   "Too many wrong passphrases for this event; try again in {wait}."),
    "all": Limit(30, 900.0, 3600.0, 7200.0,
                 "Too many wrong passphrases on this server; try again in {wait}."),
}
"""The limits by scope: a device's address, its /24 or /64, one event, every event together.
Steady state under attack: about 10 tries an hour for an event, whatever the number of addresses."""


@dataclass
class _Scope:
    failures: int = 0
    in_flight: int = 0
    pauses: int = 0
    paused_until: float = 0.0
    last: float = 0.0


@dataclass
class FailedTries:
    """What the organizer is shown of an event's wrong passphrases since the server started."""

    count: int = 0
    last: float = 0.0
    addresses: dict[str, int] = field(default_factory=dict)
    paused_until: float = 0.0
    """Until when other devices cannot sign in to it (0: they can)."""


def _in_minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


@dataclass
class SignInGuard:
    """Counts wrong passphrases per device, network, event and overall; refuses a try while a
    scope it touches is paused, at once and with the reason (no answer waits for another).

    A try is reserved before its passphrase is checked, so a crowd of simultaneous tries
    cannot pass a limit either; a right passphrase forgets the device's own failures only
    (an attacker's are not forgiven by someone else's success).
    """

    clock: Callable[[], float] = time.time
    limits: Mapping[str, Limit] = field(default_factory=lambda: dict(LIMITS))
    scopes: dict[tuple[str, str], _Scope] = field(default_factory=dict)
    tries: dict[str, FailedTries] = field(default_factory=dict)
    hashing_at_once: int = 2
    """Passphrase hashes computed at the same time (each takes a core and 16 MB for about 0.1 s)."""
    _slots: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = field(
        default_factory=WeakKeyDictionary)

    def hashing(self) -> asyncio.Semaphore:
        """Held while one passphrase is hashed: a crowd's checks queue for the cores instead of
        taking 16 MB each at once (a wait of a few hashes, never a pause)."""
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.hashing_at_once)
        return slots

    def _scopes(self, address: str, events: Iterable[str]) -> list[tuple[str, str]]:
        return [("device", address), ("network", network_of(address)), *(("event", e) for e in events),
                ("all", "")]

    def _forgotten(self, key: tuple[str, str], scope: _Scope) -> bool:
        return not scope.in_flight and self.clock() - scope.last > self.limits[key[0]].forget

    def _scope(self, key: tuple[str, str], create: bool = False) -> _Scope:
        """The scope's count (a blank one, kept only if ``create``: a refused try stores nothing)."""
        scope = self.scopes.get(key)
        if scope is not None and self._forgotten(key, scope):
            del self.scopes[key]
            scope = None
        if scope is None:
            scope = _Scope()
            if create:
                if len(self.scopes) > 4096:  # addresses that came and went: drop the quiet ones
                    for old in [k for k, s in self.scopes.items() if self._forgotten(k, s)]:
                        del self.scopes[old]
                self.scopes[key] = scope
        return scope

    def refusal(self, address: str, events: Iterable[str]) -> str | None:
        """Why a try from ``address`` at ``events`` is refused now (the longest pause), or None."""
        now = self.clock()
        worst: tuple[float, str] | None = None
        for key in self._scopes(address, events):
            scope, limit = self._scope(key), self.limits[key[0]]
            if scope.paused_until > now and (worst is None or scope.paused_until > worst[0]):
                worst = (scope.paused_until, limit.refusal.format(wait=_in_minutes(scope.paused_until - now)))
            elif scope.failures + scope.in_flight >= limit.allowed and worst is None:
                worst = (now, limit.refusal.format(wait=_in_minutes(1)))  # the last allowed tries are being checked
        return None if worst is None else worst[1]

    def paused(self, tournament_id: str) -> bool:
        return self._scope(("event", tournament_id)).paused_until > self.clock()

    async def attempt(self, address: str, events: Iterable[str], check: Callable[[], Awaitable[bool]]) -> bool:
        """Run ``check`` (is the passphrase right?) unless a scope is paused; count a wrong one.

        :raises PassphraseRefused: a scope is paused (the reason and the wait, in minutes).
        """
        events = list(events)
        reason = self.refusal(address, events)
        if reason is not None:
            raise PassphraseRefused(reason + " The organizer's own device still opens the event.")
        scopes = [(key, self._scope(key, create=True)) for key in self._scopes(address, events)]
        for _, scope in scopes:
            scope.in_flight += 1
        ok = False
        try:
            ok = await check()
        finally:
            now = self.clock()
            for key, scope in scopes:
                limit = self.limits[key[0]]
                scope.in_flight -= 1
                if ok:
                    if key[0] == "device":
                        scope.failures = 0
                    continue
                scope.failures += 1
                scope.last = now
                if scope.failures >= limit.allowed:
                    scope.paused_until = now + min(limit.pause * 2.0 ** scope.pauses, limit.longest)
                    scope.pauses += 1
                    scope.failures = 0
            if not ok:
                for event in events:
                    record = self.tries.setdefault(event, FailedTries())
                    record.count += 1
                    record.last = now
                    record.addresses[address] = record.addresses.get(address, 0) + 1
        return ok

    def failed_tries(self, tournament_id: str) -> FailedTries:
        """The event's wrong passphrases so far (a copy), with its pause if it is paused now."""
        record = self.tries.get(tournament_id, FailedTries())
        until = self._scope(("event", tournament_id)).paused_until
        return FailedTries(record.count, record.last, dict(record.addresses), until if until > self.clock() else 0.0)


GUARD = SignInGuard()
"""The process's one guard (every session's sign-in goes through it)."""


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
    guard: SignInGuard = field(default_factory=lambda: GUARD)
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

    async def sign_in(self, passphrase: str, hashes: Mapping[str, str], target: str | None = None) -> list[str]:
        """Check the passphrase against the events' hashes (those not paused; ``target``, the event the
        route opens, must not be); the events it opens, each remembered on this device for
        :data:`SESSION_SECONDS`. A wrong one counts against each event it was checked for.

        :raises PassphraseRefused: it opens none, or a scope is paused (said with its wait).
        """
        matched: list[str] = []
        guard = self.guard
        if target is not None and target in hashes and guard.paused(target):
            reason = guard.refusal(self.address or "", [target])
            raise PassphraseRefused(f"{reason} The organizer's own device still opens the event.")
        tried = {tid: stored for tid, stored in hashes.items() if stored and not guard.paused(tid)}
        if not tried:  # nothing to check: every event is paused (or none has a passphrase)
            reason = guard.refusal(self.address or "", [tid for tid, stored in hashes.items() if stored])
            raise PassphraseRefused(f"{reason} The organizer's own device still opens the event." if reason else
                                    "That passphrase opens no event here.")

        async def check() -> bool:
            for tid, stored in tried.items():
                async with guard.hashing():
                    if await asyncio.to_thread(verify_passphrase, passphrase, stored):
                        matched.append(tid)
            return bool(matched)

        if not await guard.attempt(self.address or "", tried, check):
            paused = " Some events here are paused after too many wrong passphrases." if len(tried) < sum(
                map(bool, hashes.values())) else ""
            raise PassphraseRefused("That passphrase opens no event here. Check it with the organizer and try "
                                    "again (a few wrong tries pause sign-in for a while)." + paused)
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


class OrganizerEvents(Protocol):
    """What an access decision reads of the organizer's events (:class:`app.organizer.Organizer` is one)."""

    async def passphrase_hashes(self) -> dict[str, str]: ...

    async def event_for_code(self, text: str) -> str | None: ...


@dataclass(frozen=True)
class RouteAccess:
    """What an organizer route shows this device.

    ``status``: ``open``; ``sign_in`` (the passphrase is asked first, with ``refusal`` saying
    so when sign-in is paused for this device or event); ``no_passphrase`` (the event has
    none yet: only an organizer address opens it).
    """

    status: str
    refusal: str = ""


async def route_target(parts: tuple[str, ...], events: OrganizerEvents) -> str | None:
    """The event the organizer route ``parts`` opens or writes to; None for the events list
    (or a result link that reaches no event: the import screen only says so)."""
    if parts and parts[0].lower() == "import":
        try:
            return await events.event_for_code(unquote("/".join(parts[1:])))
        except (CodeDamaged, LookupError):
            return None
    return parts[1] if len(parts) > 1 else None


async def route_access(access: DeviceAccess, events: OrganizerEvents, parts: tuple[str, ...]) -> RouteAccess:
    """Whether this device may open the organizer route ``parts`` (see the module docstring)."""
    if access.organizer:
        return RouteAccess("open")
    hashes = await events.passphrase_hashes()
    target = await route_target(parts, events)
    if target is None:
        listing = len(parts) <= 1
        status = "open" if not listing or await access.unlocked(hashes) else "sign_in"
    elif target not in hashes:
        status = "open"  # no such event: its screen says so
    elif not hashes[target]:
        status = "no_passphrase"
    else:
        status = "open" if await access.allows(target, hashes[target]) else "sign_in"
    refusal = ""
    if status == "sign_in":  # told before typing when the event is under attack
        refusal = access.guard.refusal(access.address or "", [target] if target else []) or ""
    return RouteAccess(status, refusal)
