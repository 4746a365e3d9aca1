"""How the organizer keeps one event in the store: its log and what is kept beside it.

The "tournaments" collection holds one document per event: the event log (the engine's
:class:`engine.Tournament` is its replay), what the list of events shows, and what is not
part of the event itself: the address phones reach this app on (for the deep link in the
tables' result codes), the last result codes refused with the reason (for the results
inbox), the organizer passphrase's hash (:mod:`app.passphrase`) and when a copy of the
event was last saved (:mod:`app.event_copy`). Its shape is checked by
:mod:`app.storage.schema`. Only the log is the event's own: a copy of the event carries
it alone, and everything kept beside it stays the device's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.storage import Document, utc_now_iso
from engine import Tournament

__all__ = ["COLLECTION", "REFUSALS_KEPT", "CopyMark", "Refusal", "KeptEvent", "read_event", "event_document"]

COLLECTION: Final = "tournaments"
REFUSALS_KEPT: Final = 30
"""How many refused result codes an event keeps (the newest)."""


@dataclass(frozen=True)
class CopyMark:
    """When the last copy of an event was saved, and how many actions its log had then."""

    at: str
    actions: int


@dataclass(frozen=True)
class Refusal:
    """A result code the organizer's device refused, and why (in the engine's words)."""

    at: str
    code: str
    reason: str

    @property
    def short_code(self) -> str:
        return self.code if len(self.code) <= 24 else self.code[:21] + "..."


@dataclass(frozen=True)
class KeptEvent:
    """What the organizer keeps of one event: the engine's tournament and, beside its log,
    the address phones reach this app on, the codes refused lately, the passphrase's hash and
    when a copy of the event was last saved (:mod:`app.event_copy`)."""

    tournament: Tournament
    link_base: str = ""
    refusals: tuple[Refusal, ...] = ()
    passphrase_hash: str = ""
    copied: CopyMark | None = None


def read_event(document: Document) -> KeptEvent:
    """A stored event as the organizer holds it (its log replayed once).

    :raises FarkleError: the log is not a legal tournament.
    :raises KeyError, TypeError: the document is not an event's.
    """
    return KeptEvent(
        Tournament.from_events(document["events"]),
        str(document.get("link_base", "")),
        tuple(Refusal(**item) for item in document.get("refused", [])),
        str(document.get("passphrase_hash", "") or ""),
        CopyMark(**document["last_copy"]) if document.get("last_copy") else None,
    )


def event_document(tournament_id: str, kept: KeptEvent) -> Document:
    """The document that keeps an event: its log (serialised once) and what its list shows."""
    tournament = kept.tournament
    return {
        "id": tournament_id,
        "name": tournament.name,
        "event_id": tournament.event_id,
        "players": len(tournament.players),
        "round": tournament.round,
        "champion": tournament.champion_name,
        "link_base": kept.link_base,
        "passphrase_hash": kept.passphrase_hash,
        "refused": [refusal.__dict__ for refusal in kept.refusals],
        "last_copy": kept.copied.__dict__ if kept.copied is not None else None,
        "updated": utc_now_iso(),
        "events": tournament.events,
    }
