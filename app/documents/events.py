"""The events: one document per event, holding its log and what the list of events shows.

The "tournaments" collection keeps each event's log (the engine's
:class:`engine.Tournament` is its replay), the fields the list of events and a result
link need (:data:`LISTING`, read from the collection's index, never by replaying every
event), and what the device keeps with the event: the address phones reach this app on
(for the deep link in the tables' result codes) and the organizer passphrase's hash
(:mod:`app.event.passphrase`). The codes refused lately and when a copy was last saved are the
device's own, kept beside the event (:data:`KIND`'s ``beside``), so neither moves the
event's revision. Only the log is the event's own: a copy of the event carries it alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final

from app.i18n import ntr, tr
from app.storage import (
    DOCUMENT_SCHEMAS,
    INTEGER,
    NULL,
    STRING,
    Document,
    DocumentKind,
    DocumentSchema,
    Listing,
    Store,
    utc_now_iso,
)
from engine import Tournament

__all__ = ["COLLECTION", "CHECKS", "KIND", "LISTING", "REFUSALS_KEPT", "CopyMark", "KeptEvent", "Refusal",
           "TournamentSummary", "copy_kept", "copy_mark", "event_document", "event_summaries", "players_page_kept",
           "players_page_open", "read_event", "refusals", "refusals_kept", "replay_event"]

COLLECTION: Final = "tournaments"
REFUSALS_KEPT: Final = 30
"""How many refused result codes an event keeps (the newest)."""


def replay_event(document: Document) -> None:
    """A stored event's log replays (the engine refuses an illegal one) to the code and
    name it lists.

    :raises FarkleError: the log is not a legal tournament.
    :raises ValueError: the listed code or name is not the log's.
    """
    tournament = Tournament.from_events(document["events"])
    for name, value in (("event_id", tournament.event_id), ("name", tournament.name)):
        if name in document and document[name] != value:
            raise ValueError(f"it lists {name} {document[name]!r} but its log has {value!r}")


CHECKS: Final = DOCUMENT_SCHEMAS[COLLECTION].with_checks(replay_event)
"""What a stored event must be before it is listed or opened: its shape, and a log the engine replays."""


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
    the address phones reach this app on and the organizer passphrase's hash."""

    tournament: Tournament
    link_base: str = ""
    passphrase_hash: str = ""


def read_event(document: Document) -> KeptEvent:
    """A stored event as the organizer holds it (its log replayed once).

    :raises FarkleError: the log is not a legal tournament.
    :raises KeyError, TypeError: the document is not an event's.
    """
    return KeptEvent(
        Tournament.from_events(document["events"]),
        str(document.get("link_base", "")),
        str(document.get("passphrase_hash", "") or ""),
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
        "updated": utc_now_iso(),
        "events": tournament.events,
    }


KIND: Final = DocumentKind(
    COLLECTION, read_event, event_document,
    lambda: tr("This event was changed on another screen meanwhile. It now shows that screen's latest state: "
               "check it, then enter your action again."),
    beside={"refused": [], "last_copy": None, "players_page": True},
)


def refusals(beside: Mapping[str, Any]) -> tuple[Refusal, ...]:
    """The refused codes kept beside an event, newest first."""
    return tuple(Refusal(**item) for item in beside["refused"])


def copy_mark(beside: Mapping[str, Any]) -> CopyMark | None:
    """When a copy of the event was last saved, as kept beside it."""
    return CopyMark(**beside["last_copy"]) if beside["last_copy"] else None


def players_page_open(beside: Mapping[str, Any]) -> bool:
    """Whether players may open the event's players' page on their phones: on unless the
    organizer closed it on this device (the venue server reads the switch kept beside the event).

    >>> players_page_open(KIND.beside), players_page_open({"players_page": False})
    (True, False)
    """
    return beside.get("players_page", True) is not False


def players_page_kept(open_: bool) -> dict[str, Any]:
    """The ``players_page`` switch kept beside an event."""
    return {"players_page": open_}


def refusals_kept(refused: tuple[Refusal, ...]) -> dict[str, Any]:
    """The ``refused`` field kept beside an event (the newest :data:`REFUSALS_KEPT`)."""
    return {"refused": [asdict(refusal) for refusal in refused[:REFUSALS_KEPT]]}


def copy_kept(mark: CopyMark) -> dict[str, Any]:
    """The ``last_copy`` field kept beside an event."""
    return {"last_copy": asdict(mark)}


@dataclass(frozen=True)
class TournamentSummary:
    """One line of the organizer's list of events."""

    id: str
    name: str
    event_id: str
    players: int
    round: int
    champion: str | None
    updated: str
    passphrase_hash: str = ""

    @property
    def line(self) -> str:
        if self.champion:
            state = tr("champion {name}", name=self.champion)
        elif self.round:
            state = tr("round {number}", number=self.round)
        else:
            state = tr("sign-up")
        return ntr("{name} ({event_id}) · {players} player · {state}",
                   "{name} ({event_id}) · {players} players · {state}", self.players,
                   name=self.name, event_id=self.event_id, players=self.players, state=state)


_LISTED: Final = ("name", "event_id", "players", "round", "champion")


def _listed_fields(document: Document) -> dict[str, Any]:
    """What the list of events and a result link need of an event: the fields its document
    lists (a document stored before it listed them all is replayed once, for the index)."""
    if all(document.get(name) is not None for name in _LISTED if name != "champion"):
        listed = {name: document.get(name) for name in _LISTED}
    else:
        tournament = Tournament.from_events(document["events"])
        listed = {"name": tournament.name, "event_id": tournament.event_id, "players": len(tournament.players),
                  "round": tournament.round, "champion": tournament.champion_name}
    return {**listed, "updated": str(document.get("updated", "")),
            "passphrase_hash": str(document.get("passphrase_hash", "") or "")}


LISTING: Final = Listing(
    "event-summary-1",
    _listed_fields,
    DocumentSchema(
        "event summary",
        required={"name": STRING, "event_id": STRING, "players": INTEGER, "round": INTEGER, "champion": STRING | NULL,
                  "updated": STRING, "passphrase_hash": STRING},
    ),
)
"""What the events' index keeps of each event (:meth:`app.storage.Store.summaries`)."""


async def event_summaries(store: Store) -> list[TournamentSummary]:
    """Every readable event, most recently changed first (from the events' index)."""
    listed = await store.summaries(COLLECTION, LISTING)
    summaries = [TournamentSummary(doc_id, **fields) for doc_id, fields in listed.items()]
    return sorted(summaries, key=lambda summary: summary.updated, reverse=True)
