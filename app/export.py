"""What "Export all games" may hand to the device that asked: never a table's signing key
to a device that may not sign that table's results.

A tournament table's game keeps the setup code it was joined with, and that code holds
the table's signing key: whoever has it can sign a result the organizer counts for that
table.  On a venue network any phone can open Home and press Export, so an export carries
a table's setup code only to a device that may act for its event anyway: the organizer's
own device (:class:`~app.access.DeviceAccess`), or one signed in with that event's
organizer passphrase.  Elsewhere a table game goes without it (:func:`without_signing_key`):
still a full record of the game (players, log, scores, table and round), but one that
cannot sign a result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.access import DeviceAccess
from app.organizer import Organizer
from app.storage import Document, Store, utc_now_iso
from app.tournament_table import KEY_WITHHELD

__all__ = ["GameExport", "KeyPolicy", "export_games", "signing_events", "without_signing_key"]

KeyPolicy = Callable[[str], bool]
"""Whether an export may carry the signing keys of the tables of this event (by its event id)."""


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
    game keeps its setup code only where ``may_carry_keys`` allows its event."""
    games: list[dict[str, Any]] = []
    withheld = 0
    for document in documents.values():
        tournament = document.get("tournament")
        if isinstance(tournament, Mapping) and "setup" in tournament and not may_carry_keys(
                str(tournament.get("event_id", ""))):
            games.append(without_signing_key(document))
            withheld += 1
        else:
            games.append(document)
    export = {"format": "farkle-table-games", "version": 1, "exported": utc_now_iso(), "games": games}
    return GameExport(json.dumps(export, indent=1).encode("utf-8"), withheld)


async def signing_events(store: Store, access: DeviceAccess) -> KeyPolicy:
    """The events whose tables' keys this device may take: every one on the organizer's own
    device; elsewhere, those stored here that it has given the organizer passphrase of."""
    if access.organizer:
        return lambda event_id: True
    organizer = Organizer(store)
    unlocked = await access.unlocked(await organizer.passphrase_hashes())
    allowed = frozenset(summary.event_id for summary in await organizer.summaries() if summary.id in unlocked)
    return lambda event_id: event_id in allowed
