"""A copy of one whole event in one file, kept off the device and opened again on any device.

A browser may clear a site's storage: Safari does after seven days without a visit (for a
site not added to the Home Screen), any browser may when the device runs short of space.
An organizer who prepares an event a week early, or runs it on a phone, keeps a copy: the
event page offers one before round 1 is drawn and after each round closes, and says when
the last copy was saved. The copy is the stored event document itself (its log, the result
links' address, the refused codes, the passphrase's hash) inside a small envelope that says
what it is; opening it checks it as the store checks an event (its fields, then the
engine's replay of its log), so a damaged or foreign file is refused and changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from app.storage import REVISION_FIELD, Document, Store
from app.storage.documents import revision_of
from app.storage.documents import is_usable_id
from app.storage.schema import DocumentSchema
from app.i18n import ntr, tr

__all__ = [
    "COPY_KIND", "CopyRefused", "CopyMark", "EventCopy", "read_copy", "copy_due", "copy_line", "CopyOpened", "open_copy",
]

COPY_KIND: Final = "farkle-table-event-copy"
COPY_VERSION: Final = 1
GAMES_EXPORT_FORMAT: Final = "farkle-table-games"
"""What Home's "Export all games" file says it is (app/export.py): named when such a file is opened here."""


class CopyRefused(ValueError):
    """A file that is not a usable event copy, in words for the organizer; nothing was opened."""


@dataclass(frozen=True)
class CopyMark:
    """When the last copy of an event was saved, and how many actions its log had then."""

    at: str
    actions: int


@dataclass(frozen=True)
class EventCopy:
    """One event's stored document, ready to write to a file or just read from one."""

    tournament_id: str
    document: Document
    saved: str

    @property
    def name(self) -> str:
        return str(self.document.get("name") or self.tournament_id)

    @property
    def actions(self) -> int:
        return len(self.document.get("events", []))

    def file_name(self) -> str:
        code = str(self.document.get("event_id") or self.tournament_id).lower()
        return f"{code}-event-copy.json"

    def data(self) -> bytes:
        document = {key: value for key, value in self.document.items() if key != REVISION_FIELD}
        envelope = {"kind": COPY_KIND, "version": COPY_VERSION, "saved": self.saved,
                    "tournament_id": self.tournament_id, "event": document}
        return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def read_copy(data: bytes | None, schema: DocumentSchema) -> EventCopy:
    """The event copy ``data`` holds, checked against the stored-event ``schema`` (with its replay).

    :raises CopyRefused: the file is empty, not JSON, another kind of file, from a newer
        version of the app, or a damaged event.
    """
    if not data:
        raise CopyRefused(tr("The file is empty: choose the .json file \"Save a copy of the event\" made."))
    try:
        envelope: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise CopyRefused(tr("This file is not an event copy (it is not the JSON text the app saves).")) from None
    if not isinstance(envelope, dict) or envelope.get("kind") != COPY_KIND:
        if isinstance(envelope, dict) and envelope.get("format") == GAMES_EXPORT_FORMAT:
            raise CopyRefused(tr("This file is an export of games, not a copy of an event: choose the file \"Save "
                                 "a copy of the event\" made."))
        raise CopyRefused(tr("This file is not an event copy: choose the file \"Save a copy of the event\" made."))
    version = envelope.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CopyRefused(tr("This event copy is damaged: it does not say which version made it."))
    if version > COPY_VERSION:
        raise CopyRefused(tr("This event copy was made by a newer version of Farkle Table: update the app to open "
                             "it."))
    tournament_id, document = envelope.get("tournament_id"), envelope.get("event")
    if not isinstance(tournament_id, str) or not is_usable_id(tournament_id) or not isinstance(document, dict):
        raise CopyRefused(tr("This event copy is damaged: it has no event in it."))
    problem = schema.problem(document)
    if problem is not None:
        raise CopyRefused(tr("This event copy is damaged, so nothing was opened: {problem}.", problem=problem))
    return EventCopy(tournament_id, document, str(envelope.get("saved") or ""))


def copy_due(actions: int, last: CopyMark | None, *, signed_up: int, round_open: bool, round_number: int) -> bool:
    """Whether the event page should offer a copy now: once players are signed up before round 1
    is drawn, and whenever a round is closed (or the event over), if anything happened since the
    last copy. Mid-round the tables are playing: the copy waits for the round's end."""
    if last is not None and last.actions >= actions:
        return False
    if round_number == 0:
        return signed_up > 0
    return not round_open


def copy_line(copied: CopyMark | None, actions: int) -> str:
    """When the last copy of the event was saved (local time), and what happened since."""
    if copied is None:
        return tr("No copy of this event saved yet.")
    try:
        at = datetime.fromisoformat(copied.at.replace("Z", "+00:00")).astimezone()
        when = tr("{time} on {day} {month}", time=f"{at:%H:%M}", day=at.day, month=f"{at:%b %Y}")
    except ValueError:
        when = copied.at
    since = actions - copied.actions
    after = tr("nothing has changed since") if since <= 0 else tr("{actions} since", actions=_actions(since))
    return tr("Last copy saved at {when}: {after}.", when=when, after=after)


@dataclass(frozen=True)
class CopyOpened:
    """What opening a copy did: the event it holds, and in words."""

    tournament_id: str
    words: str


async def open_copy(store: Store, collection: str, data: bytes | None, schema: DocumentSchema) -> CopyOpened:
    """Put the event copy ``data`` holds into ``store``, unless this device holds as much or more.

    A copy of an event this device does not hold is added; one whose log goes on from the
    stored event's (saved later) replaces it; the same log only opens the stored event. A
    stored event that went on past the copy, or went another way, is kept and the copy refused.

    :raises CopyRefused: not a usable copy, or one that would lose what the device holds.
    :raises StoreError: the store could not save it.
    """
    copy = read_copy(data, schema)
    stored = await store.load(collection, copy.tournament_id)
    document = {key: value for key, value in copy.document.items() if key != REVISION_FIELD}
    if stored is None:
        await store.save(collection, copy.tournament_id, document, expect_revision=0)
        return CopyOpened(copy.tournament_id, tr("Opened the copy of {name} ({actions}).",
                                                 name=copy.name, actions=_actions(copy.actions)))
    held: list[Any] = list(stored.get("events", []))
    kept: list[Any] = list(copy.document["events"])
    if held == kept:
        return CopyOpened(copy.tournament_id, tr("This device already holds {name} as the copy has it: nothing "
                                                 "needed changing.",
                                                 name=copy.name))
    if kept[: len(held)] == held:
        await store.save(collection, copy.tournament_id, document, expect_revision=revision_of(stored))
        return CopyOpened(copy.tournament_id, tr("Opened the copy of {name}: {actions} newer than this device "
                                                 "held.",
                                                 name=copy.name, actions=_actions(len(kept) - len(held))))
    if held[: len(kept)] == kept:
        raise CopyRefused(tr("This device holds {name} further on than the copy ({actions} against {count}): it "
                             "is kept as it is, and the copy was not opened.",
                             name=copy.name, actions=_actions(len(held)), count=len(kept)))
    raise CopyRefused(tr("This device holds {name} with actions the copy does not have: it is kept as it is, and "
                         "the copy was not opened (open it on another device, or delete this one first).",
                         name=copy.name))


def _actions(count: int) -> str:
    return ntr("{count:,} action", "{count:,} actions", count, count=count)
