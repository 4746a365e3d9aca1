"""Organizer access: who may open an event's organizer screens, without any widget.

On a venue network every phone reaches the server (``--host 0.0.0.0``), so the organizer's
screens are kept for the organizer:

* The organizer's own addresses (loopback by default; ``--organizer-address`` or
  ``FARKLE_ORGANIZER_ADDRESSES``, a comma list of addresses or networks) open everything
  (:mod:`app.venue.client_address`).
* Any other device gives the event's organizer passphrase (:mod:`app.event.passphrase`) once; it
  then holds a signed session token (in its own client storage) that expires after
  :data:`SESSION_SECONDS`.
* An event without a passphrase (created before passphrases, or left without one on the
  organizer's own device) opens only from an organizer address.

:func:`route_access` decides what an organizer route shows a device (the screen, the
passphrase asked first, or "organizer only"); the gate screen only draws that decision.

A session token is ``<event id>.<expiry>.<HMAC>`` keyed by the event's stored passphrase
hash: it cannot be made without the server's copy of the hash, survives a restart, and
dies when the passphrase changes. Wrong passphrases are limited by :mod:`app.event.sign_in_guard`.

The players' page (``/players/<event code>``) is public-read instead: :func:`players_access` opens it
to any device, without a passphrase, unless the organizer switched it off for the event.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from urllib.parse import unquote

from app.documents.events import COLLECTION, KIND, players_page_open
from app.venue.client_address import is_organizer_address, peer_of
from app.event.codes import SharedCode, code_holders
from app.event.passphrase import PassphraseRefused, b64_unpadded, verify_passphrase
from app.runtime import in_browser
from app.event.sign_in_guard import GUARD, SignInGuard
from app.i18n import tr
from app.storage import BESIDE, Store
from engine import CodeDamaged

__all__ = [
    "SESSION_SECONDS", "SESSIONS_KEY", "issue_token", "token_valid", "Prefs", "DeviceAccess", "OrganizerEvents",
    "RouteAccess", "route_targets", "route_target", "route_access", "PlayersAccess", "players_access",
]

SESSION_SECONDS: Final = 12 * 3600
"""How long a device stays signed in to an event after giving its passphrase."""
SESSIONS_KEY: Final = "farkle.organizer.sessions"
"""The client-storage key holding the device's session tokens (``{event id: token}``)."""


def _session_key(stored_hash: str) -> bytes:
    return hmac.new(stored_hash.encode("utf-8"), b"farkle-table organizer session v1", hashlib.sha256).digest()


def _signature(tournament_id: str, expires: int, stored_hash: str) -> str:
    body = f"{tournament_id}.{expires}".encode()
    return b64_unpadded(hmac.new(_session_key(stored_hash), body, hashlib.sha256).digest())


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
        organizer = in_browser() or address is None or is_organizer_address(address)
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
            raise PassphraseRefused(tr("{reason} The organizer's own device still opens the event.", reason=reason))
        tried = {tid: stored for tid, stored in hashes.items() if stored and not guard.paused(tid)}
        if not tried:  # nothing to check: every event is paused (or none has a passphrase)
            reason = guard.refusal(self.address or "", [tid for tid, stored in hashes.items() if stored])
            raise PassphraseRefused(tr("{reason} The organizer's own device still opens the event.",
                                       reason=reason) if reason else
                                    tr("That passphrase opens no event here."))

        async def check() -> bool:
            for tid, stored in tried.items():
                async with guard.hashing():
                    if await asyncio.to_thread(verify_passphrase, passphrase, stored):
                        matched.append(tid)
            return bool(matched)

        if not await guard.attempt(self.address or "", tried, check):
            paused = tr(" Some events here are paused after too many wrong passphrases.") if len(tried) < sum(
                map(bool, hashes.values())) else ""
            raise PassphraseRefused(tr("That passphrase opens no event here. Check it with the organizer and try "
                                       "again (a few wrong tries pause sign-in for a while).") + paused)
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
    """What an access decision reads of the organizer's events (:class:`app.event.organizer.Organizer` is one)."""

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


async def route_targets(parts: tuple[str, ...], events: OrganizerEvents) -> tuple[str, ...]:
    """The events the organizer route ``parts`` opens or writes to: one; several for a result link
    whose event code several stored events hold (its screen asks which); none for the events list
    (or a result link that reaches no event: the import screen only says so)."""
    if parts and parts[0].lower() == "import":
        try:
            found = await events.event_for_code(unquote("/".join(parts[1:])))
        except SharedCode as shared:
            return tuple(holder.id for holder in shared.holders)
        except (CodeDamaged, LookupError):
            return ()
        return (found,) if found else ()
    return (parts[1],) if len(parts) > 1 else ()


async def route_target(parts: tuple[str, ...], events: OrganizerEvents) -> str | None:
    """The one event the organizer route ``parts`` opens (:func:`route_targets`); None for none or several."""
    targets = await route_targets(parts, events)
    return targets[0] if len(targets) == 1 else None


async def route_access(access: DeviceAccess, events: OrganizerEvents, parts: tuple[str, ...]) -> RouteAccess:
    """Whether this device may open the organizer route ``parts`` (see the module docstring); a route
    reaching several events opens when the device opens one of them (its screen offers only those)."""
    if access.organizer:
        return RouteAccess("open")
    hashes = await events.passphrase_hashes()
    targets = [target for target in await route_targets(parts, events) if target in hashes]
    guarded = {target: hashes[target] for target in targets if hashes[target]}
    if not targets:  # the list, or no such event (its screen says so)
        listing = len(parts) <= 1
        status = "open" if not listing or await access.unlocked(hashes) else "sign_in"
    elif not guarded:
        status = "no_passphrase"
    else:
        status = "open" if await access.unlocked(guarded) else "sign_in"
    refusal = ""
    if status == "sign_in":  # told before typing when the event is under attack
        refusal = access.guard.refusal(access.address or "", list(guarded)) or ""
    return RouteAccess(status, refusal)


@dataclass(frozen=True)
class PlayersAccess:
    """What the players' page of an event code shows any device: the stored event it reads
    (``tournament_id``), or why there is none to show (``refusal``, in a player's words)."""

    tournament_id: str = ""
    refusal: str = ""


_CODE_SHOWN = 20
"""How much of an unknown code a refusal repeats (an address may be any length)."""


async def players_access(store: Store, code: str) -> PlayersAccess:
    """Whether the players' page of ``code`` opens: for anyone while the organizer keeps it on; an
    unknown code is named back alone, so the answer tells nothing of the events stored here. A
    closed page still names its stored event (never shown), so the page hears it opened again.

    :raises StoreError: the events cannot be read.
    """
    holders = await code_holders(store, code)
    if len(holders) != 1:
        shown = code.strip()
        shown = shown if len(shown) <= _CODE_SHOWN else shown[:_CODE_SHOWN - 1] + "…"
        if holders:
            return PlayersAccess(refusal=tr("Several events here have the code {code}: ask the organizer which one "
                                            "is yours.", code=shown))
        return PlayersAccess(refusal=tr("No event here has the code {code}. Check the code on the QR or the wall "
                                        "print.", code=shown))
    beside = await store.load(BESIDE, holders[0].id)
    section = beside.get(COLLECTION) if beside is not None else None
    if not players_page_open(section if isinstance(section, dict) else KIND.beside):
        return PlayersAccess(holders[0].id, tr("The organizer has closed the players' page for this event."))
    return PlayersAccess(holders[0].id)
