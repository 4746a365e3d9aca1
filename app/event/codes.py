"""One event code, one event on a device: the code names the event to phones, result links and exports.

An event code (``MAYOR-26``) is what a table's setup code, a result code and an import
link name the event by. Two stored events with one code would make a result link
ambiguous, and a code is no secret: so a new event, or one added from a saved copy, may
not take a code another stored event holds (:func:`refuse_taken_code`). Data kept before
this rule may still hold two: :func:`code_holders` lists them all, and whatever reads a
code asks which event is meant instead of picking one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.documents.events import TournamentSummary, event_summaries
from app.i18n import ntr, tr
from app.storage import Store
from engine import InvalidInput

__all__ = ["CodeHolder", "CodeTaken", "SharedCode", "code_holders", "holders_among", "refuse_taken_code"]


@dataclass(frozen=True)
class CodeHolder:
    """A stored event holding an event code: its stored id and its name."""

    id: str
    name: str


class CodeTaken(InvalidInput):
    """A new event (or a copy's) would take the event code of another stored event."""


class SharedCode(LookupError):
    """A result names an event code that several stored events hold: :attr:`holders`, to choose from."""

    def __init__(self, event_id: str, holders: list[CodeHolder]) -> None:
        super().__init__(ntr("{count} event on this device has the event code {code}: choose the one this "
                             "result is for.", "{count} events on this device have the event code {code}: choose the "
                             "one this result is for.", len(holders), count=len(holders), code=event_id))
        self.holders = tuple(holders)


async def code_holders(store: Store, event_id: str) -> list[CodeHolder]:
    """The stored events whose code is ``event_id`` (readable ones; by name), whatever their
    number: found in the events' index, no event replayed."""
    return holders_among(await event_summaries(store), event_id)


def holders_among(events: Iterable[TournamentSummary], event_id: str) -> list[CodeHolder]:
    """Those of ``events`` whose code is ``event_id``, by name."""
    wanted = event_id.strip().upper()
    holders = [CodeHolder(event.id, event.name) for event in events if event.event_id == wanted]
    return sorted(holders, key=lambda holder: (holder.name.casefold(), holder.id))


async def refuse_taken_code(store: Store, event_id: str, keeping: str | None = None) -> None:
    """Refuse ``event_id`` for an event being added when another stored event holds it (``keeping``:
    the stored id of the event being brought up to date, which may keep its own code).

    :raises CodeTaken: naming the event that holds the code.
    """
    others = [holder for holder in await code_holders(store, event_id) if holder.id != keeping]
    if others:
        raise CodeTaken(tr("The event code {code} is already the code of {event} on this device: choose another "
                           "code (or leave it empty for a new one).", code=event_id.strip().upper(),
                           event=" / ".join(holder.name for holder in others)))
