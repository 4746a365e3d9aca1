"""A copy of one whole event in one file, kept off the device and opened again on any device.

A browser may clear a site's storage: Safari does after seven days without a visit (for a
site not added to the Home Screen), any browser may when the device runs short of space.
An organizer who prepares an event a week early, or runs it on a phone, keeps a copy: the
event page offers one before round 1 is drawn and after each round closes, and says when
the last copy was saved.

The copy carries the event's log alone (and its name and code, for a person reading the
file), inside a small envelope that says what it is. What the device keeps beside the log
(the organizer passphrase's hash, the refused codes, the address phones reach it on) is
the device's own: a copy never brings or replaces it, so a file cannot set a passphrase.
Opening a copy measures it before reading it (its size, then how deeply it nests, then how
many actions it holds), reads and replays it in a worker thread, so that other devices are
answered meanwhile, and refuses whatever is not a usable copy with the reason, changing
nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import accumulate
from typing import Any, Final

from app.documents.events import COLLECTION, KIND, CopyMark, KeptEvent, copy_kept, event_document, read_event
from app.event.codes import code_holders
from app.i18n import ntr, tr
from app.storage import Store, keep_beside
from app.storage.base import off_the_loop
from app.storage.documents import is_usable_id, revision_of
from app.storage.limits import MAX_DOCUMENT_BYTES, MAX_EVENTS
from engine import Tournament
from engine.tournament.signups import refused_sign_up

__all__ = [
    "COPY_KIND", "COPY_LARGEST", "COPY_DEEPEST", "CopyRefused", "EventCopy", "read_copy", "copy_due", "copy_line",
    "CopyOpened", "open_copy",
]

COPY_KIND: Final = "farkle-table-event-copy"
COPY_VERSION: Final = 1
GAMES_EXPORT_FORMAT: Final = "farkle-table-games"
"""What Home's "Export all games" file says it is (app/table/export.py): named when such a file is opened here."""
COPY_LARGEST: Final = MAX_DOCUMENT_BYTES
"""The most bytes a copy may take: what the store keeps of one event at most, so a larger copy could never
be kept. A 500-player event's copy, every round played to its champion with scanned results, takes about
260 KB, a 2,000-player one about 1.1 MB."""
COPY_DEEPEST: Final = 16
"""How deeply a copy's JSON may nest (a copy the app writes nests 9 deep: envelope, event, log, action,
a roll-off's rolls); measured before it is parsed."""
_SAVED_LONGEST: Final = 40
"""The most characters of a copy's "saved" time (an ISO time takes 32)."""

_JSON_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS: Final = bytes(sorted(set(range(256)) - set(b"[]{}")))
_OPENING: Final = b"[{"


class CopyRefused(ValueError):
    """A file that is not a usable event copy, in words for the organizer; nothing was opened."""


@dataclass(frozen=True)
class EventCopy:
    """One event's log (its tournament, replayed), ready to write to a file or just read from one."""

    tournament_id: str
    tournament: Tournament
    saved: str

    @property
    def name(self) -> str:
        return self.tournament.name

    @property
    def actions(self) -> int:
        return len(self.tournament)

    def file_name(self) -> str:
        return f"{self.tournament.event_id.lower()}-event-copy.json"

    def data(self) -> bytes:
        event = {"name": self.tournament.name, "event_id": self.tournament.event_id, "events": self.tournament.events}
        envelope = {"kind": COPY_KIND, "version": COPY_VERSION, "saved": self.saved,
                    "tournament_id": self.tournament_id, "event": event}
        return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _nesting(data: bytes) -> int:
    """How deeply the JSON text ``data`` nests (its strings skipped), counted without parsing it.

    >>> _nesting(b'{"a": [1, {"b": "[[["}]}'), _nesting(b"[" * 5), _nesting(b"7")
    (3, 5, 0)
    """
    brackets = _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if byte in _OPENING else -1 for byte in brackets), default=0)


def read_copy(data: bytes | None) -> EventCopy:
    """The event copy ``data`` holds, its log replayed by the engine; the size, the nesting and the
    number of actions are measured first, each before the work it bounds (seconds for a large copy:
    call it off the event loop).

    :raises CopyRefused: the file is empty, too large, nested too deeply, not JSON, another kind
        of file, from a newer version of the app, or a log the engine does not replay.
    """
    if not data:
        raise CopyRefused(tr("The file is empty: choose the .json file \"Save a copy of the event\" made."))
    if len(data) > COPY_LARGEST:
        raise CopyRefused(tr("This file is {size:,} bytes: a copy of an event is at most {limit:,} (the most this "
                             "device keeps of one event; a 500-player event's copy takes about 260,000). It is not "
                             "a copy the app saved.", size=len(data), limit=COPY_LARGEST))
    depth = _nesting(data)
    if depth > COPY_DEEPEST:
        raise CopyRefused(tr("This file nests {depth:,} levels deep: an event copy nests at most {limit}. It is not "
                             "a copy the app saved.", depth=depth, limit=COPY_DEEPEST))
    try:
        envelope: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
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
    log = document.get("events")
    if not isinstance(log, list) or not log:
        raise CopyRefused(tr("This event copy is damaged, so nothing was opened: it holds no log of the event's "
                             "actions."))
    if len(log) > MAX_EVENTS:
        raise CopyRefused(tr("This event copy holds {count:,} actions: an event keeps at most {limit:,}, so nothing "
                             "was opened.", count=len(log), limit=MAX_EVENTS))
    try:
        tournament = Tournament.from_events(log)
    except Exception as error:  # noqa: BLE001 - a damaged or hostile log may make the replay fail any way
        raise CopyRefused(tr("This event copy is damaged, so nothing was opened: its log does not replay ({reason}).",
                             reason=str(error).rstrip("."))) from None
    refused_name = refused_sign_up(log)
    if refused_name is not None:
        raise CopyRefused(tr("This event copy signs up a name the app would refuse, so nothing was opened: {reason}",
                             reason=refused_name))
    return EventCopy(tournament_id, tournament, _saved_time(envelope.get("saved")))


def _saved_time(value: Any) -> str:
    """The copy's "saved" time if it is one (an ISO time), else ""."""
    if not isinstance(value, str) or len(value) > _SAVED_LONGEST:
        return ""
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return ""
    return value


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
    at: datetime | None
    try:
        at = datetime.fromisoformat(copied.at.replace("Z", "+00:00")).astimezone()
    except ValueError:
        at = None
    since = actions - copied.actions
    after = tr("nothing has changed since") if since <= 0 else tr("{actions} since", actions=_actions(since))
    if at is None:  # a mark this app did not write: its time shown as it is kept
        return tr("Last copy saved at {when}: {after}.", when=copied.at, after=after)
    # the date in numbers, as every language reads it: no month's English name
    return tr("Last copy saved on {date} at {time}: {after}.", date=f"{at:%Y-%m-%d}", time=f"{at:%H:%M}", after=after)


@dataclass(frozen=True)
class CopyOpened:
    """What opening a copy did: the event it holds, and in words."""

    tournament_id: str
    words: str


async def open_copy(store: Store, data: bytes | None, link_base: str = "") -> CopyOpened:
    """Put the event the copy ``data`` holds into ``store``, unless this device holds as much or more.

    A copy of an event this device does not hold is added, with this device's ``link_base``
    and no passphrase yet (its page asks for one), unless another stored event has its code;
    one whose log goes on from the stored event's (saved later) replaces that log, and only
    the log; the same log only opens the stored event. A stored event that went on past the
    copy, or went another way, is kept and the copy refused.

    :raises CopyRefused: not a usable copy, or one that would lose or mix up what the device holds.
    :raises StoreError: the store could not save it.
    """
    copy = await off_the_loop(read_copy, data)
    stored = await store.load(COLLECTION, copy.tournament_id)
    if stored is None:
        others = await code_holders(store, copy.tournament.event_id)
        if others:
            raise CopyRefused(tr("This copy holds the event {code}, and {event} on this device already has that code: "
                                 "the copy was not opened (open it on another device, or delete that event first).",
                                 code=copy.tournament.event_id, event=" / ".join(other.name for other in others)))
        kept = KeptEvent(copy.tournament, link_base.strip().rstrip("/"))
        await store.save(COLLECTION, copy.tournament_id, event_document(copy.tournament_id, kept), expect_revision=0)
        if copy.saved:
            await keep_beside(store, KIND, copy.tournament_id, copy_kept(CopyMark(copy.saved, copy.actions)))
        return CopyOpened(copy.tournament_id, tr("Opened the copy of {name} ({actions}).",
                                                 name=copy.name, actions=_actions(copy.actions)))
    held = await off_the_loop(read_event, stored)
    ours, theirs = await off_the_loop(lambda: (held.tournament.events, copy.tournament.events))
    if ours == theirs:
        return CopyOpened(copy.tournament_id, tr("This device already holds {name} as the copy has it: nothing "
                                                 "needed changing.",
                                                 name=copy.name))
    if theirs[: len(ours)] == ours:
        document = event_document(copy.tournament_id, replace(held, tournament=copy.tournament))
        await store.save(COLLECTION, copy.tournament_id, document, expect_revision=revision_of(stored))
        return CopyOpened(copy.tournament_id, tr("Opened the copy of {name}: {actions} newer than this device "
                                                 "held.",
                                                 name=copy.name, actions=_actions(len(theirs) - len(ours))))
    if ours[: len(theirs)] == theirs:
        raise CopyRefused(tr("This device holds {name} further on than the copy ({actions} against {count}): it "
                             "is kept as it is, and the copy was not opened.",
                             name=copy.name, actions=_actions(len(ours)), count=len(theirs)))
    raise CopyRefused(tr("This device holds {name} with actions the copy does not have: it is kept as it is, and "
                         "the copy was not opened (open it on another device, or delete this one first).",
                         name=copy.name))


def _actions(count: int) -> str:
    return ntr("{count:,} action", "{count:,} actions", count, count=count)
