"""Wrong organizer passphrases limited as a bank limits PIN tries (:class:`SignInGuard`).

A few wrong tries per device, per network (/24, IPv6 /64), per event and overall, then
that scope is paused (longer each time, at most an hour) and every device trying it is
told why and for how long. Answers never wait on each other; the organizer's own
addresses never go through it (:mod:`app.event.access`).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final
from weakref import WeakKeyDictionary

from app.venue.client_address import network_of
from app.event.passphrase import PassphraseRefused
from app.i18n import ntr, tr, translatable

__all__ = ["Limit", "LIMITS", "FailedTries", "SignInGuard", "GUARD"]


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
                    translatable("Too many wrong passphrases from this device; try again in {wait}.")),
    "network": Limit(10, 300.0, 3600.0, 7200.0,
                     translatable("Too many wrong passphrases from this part of the network; try again in {wait}.")),
    "event": Limit(10, 900.0, 3600.0, 7200.0,
                   translatable("Too many wrong passphrases for this event; try again in {wait}.")),
    "all": Limit(30, 900.0, 3600.0, 7200.0,
                 translatable("Too many wrong passphrases on this server; try again in {wait}.")),
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
    return ntr("{count} minute", "{count} minutes", minutes, count=minutes)


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
                worst = (scope.paused_until, tr(limit.refusal, wait=_in_minutes(scope.paused_until - now)))
            elif scope.failures + scope.in_flight >= limit.allowed and worst is None:
                worst = (now, tr(limit.refusal, wait=_in_minutes(1)))  # the last allowed tries are being checked
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
