"""What "Export all games" may hand to the device that asked: never a table's signing key
to a device that may not sign that table's results.

A tournament table's game keeps the setup code it was joined with, and that code holds
the table's signing key: whoever has it can sign a result the organizer counts for that
table.  On a venue network any phone can open Home and press Export, so an export carries
a table's setup code only to a device that may act for its event anyway: the organizer's
own device (:class:`~app.event.access.DeviceAccess`), or one signed in with that event's
organizer passphrase.  Elsewhere a table game goes without it (:func:`without_signing_key`):
still a full record of the game (players, log, scores, table and round), but one that
cannot sign a result.

"That event" is the stored event that printed the table's card, known by the card's key
(:meth:`engine.Tournament.printed`), never by the event code the game names: a code is no
secret, and data kept before codes were unique (:mod:`app.event.codes`) may hold two
events with one code, each with its own passphrase.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.event.access import DeviceAccess
from app.documents.events import COLLECTION, event_summaries, read_event
from app.storage import Document, Store, utc_now_iso
from app.table.tournament_table import KEY_WITHHELD
from engine import FarkleError, Tournament, decode_setup

__all__ = ["GameExport", "KeyPolicy", "export_games", "signing_events", "without_signing_key"]

KeyPolicy = Callable[[Mapping[str, Any]], bool]
"""Whether an export may carry a table game's setup code, and so its key (given the game's ``tournament`` field)."""


@dataclass(frozen=True)
class GameExport:
    """The export file's bytes, and how many table games went without their signing key."""

    data: bytes
    keys_withheld: int


def without_signing_key(document: Mapping[str, Any]) -> dict[str, Any]:
    """The game without its table's setup code (the key is in it); everything else kept."""
    tournament = {key: value for key, value in document["tournament"].items() if key != "setup"}
    return {**document, "tournament": {**tournament, KEY_WITHHELD: True}}


def export_games(documents: Mapping[str, Document], may_carry_keys: KeyPolicy) -> GameExport:
    """Every game as one JSON file a person can keep or move to another device; a table
    game keeps its setup code only where ``may_carry_keys`` allows it."""
    games: list[dict[str, Any]] = []
    withheld = 0
    for document in documents.values():
        tournament = document.get("tournament")
        if isinstance(tournament, Mapping) and "setup" in tournament and not may_carry_keys(tournament):
            games.append(without_signing_key(document))
            withheld += 1
        else:
            games.append(document)
    export = {"format": "farkle-table-games", "version": 1, "exported": utc_now_iso(), "games": games}
    return GameExport(json.dumps(export, indent=1).encode("utf-8"), withheld)


async def signing_events(store: Store, access: DeviceAccess) -> KeyPolicy:
    """The table games whose keys this device may take: every one on the organizer's own device;
    elsewhere, those whose card an event stored here printed, one this device has given the organizer
    passphrase of (a setup code that cannot be read goes without: it may still hold a key)."""
    if access.organizer:
        return lambda table: True
    unlocked = await access.unlocked({event.id: event.passphrase_hash for event in await event_summaries(store)})
    events: list[Tournament] = []
    for tournament_id in sorted(unlocked):
        document = await store.load(COLLECTION, tournament_id)
        try:
            events += [read_event(document).tournament] if document is not None else []
        except (FarkleError, KeyError, TypeError):
            continue  # an event that cannot be read unlocks no key

    def printed_by_an_unlocked_event(table: Mapping[str, Any]) -> bool:
        try:
            setup = decode_setup(str(table["setup"]))
        except FarkleError:
            return False
        return any(event.printed(setup) for event in events)

    return printed_by_an_unlocked_event
