"""A tournament as the replay of its log: created, rebuilt, undone, copied.

Like :class:`engine.game.Game`, every state is kept: the log (:mod:`engine.tournament.events`)
holds what happened, each state is the one before with an event applied
(:func:`engine.tournament.replay.apply`). :meth:`TournamentHistory.from_events` rebuilds the
same tournament from a stored log, :meth:`TournamentHistory.undo` pops the last action and
:meth:`TournamentHistory.copy` costs two lists, never a replay. The organizer's actions and
questions are :class:`engine.tournament.Tournament`'s, built on this.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any, Final, Self

from engine.errors import IllegalAction, InvalidInput
from engine.tournament.describe import describe
from engine.tournament.events import Event, TournamentCreated, event_from_dict, events_to_dicts
from engine.tournament.format import TournamentFormat
from engine.tournament.replay import apply, replay
from engine.tournament.state import TournamentState
from engine.words import say

__all__ = ["TournamentHistory"]

_EVENT_ID_CHARS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class TournamentHistory:
    """One event's log and the state after each of its events (the last one is the event now).

    >>> t = TournamentHistory("Spring cup", event_id="spring-26", secret=bytes(16))
    >>> t.event_id, len(t), TournamentHistory.from_events(t.events) == t
    ('SPRING-26', 1, True)
    """

    def __init__(
        self,
        name: str,
        format: TournamentFormat | None = None,
        *,
        event_id: str | None = None,
        secret: bytes | None = None,
    ) -> None:
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            raise InvalidInput(say("The tournament needs a name."))
        if event_id is None:
            event_id = "FT-" + "".join(secrets.choice(_EVENT_ID_CHARS) for _ in range(6))
        event_id = event_id.strip().upper()
        if not 1 <= len(event_id) <= 16 or any(char not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-" for char in event_id):
            raise InvalidInput(say("{event_id!r} cannot be an event id: 1 to 16 letters, digits or dashes.",
                                   event_id=event_id))
        secret = secrets.token_bytes(16) if secret is None else secret
        if len(secret) < 16:
            raise InvalidInput(say("The event secret must be at least 16 bytes."))
        fmt = format or TournamentFormat.house()
        created = TournamentCreated(name, event_id, secret, fmt)
        self._events: list[Event] = [created]
        self._states = [apply(TournamentState(), created)]

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> Self:
        """Rebuild a tournament from its log (as kept by :attr:`events`)."""
        items = [event_from_dict(data) for data in events]
        if not items or not isinstance(items[0], TournamentCreated):
            raise InvalidInput(say("A tournament log must begin with the tournament's creation."))
        tournament = cls.__new__(cls)
        tournament._states = replay(items)
        tournament._events = items
        return tournament

    @property
    def events(self) -> list[dict[str, Any]]:
        """The whole log as JSON-ready dicts."""
        return events_to_dicts(self._events)

    def __len__(self) -> int:
        """How many events the log holds: every action that changes the event logs one or
        more, and :meth:`undo` takes one back (a service saves when this changes)."""
        return len(self._events)

    def undo(self) -> str:
        """Take back the last organizer action (the state before it is kept); what it was, in words."""
        if len(self._events) == 1:
            raise IllegalAction(say("Nothing to undo: the tournament has just been created."))
        words = describe(self._events[-1], self._states[-1])
        self._keep_first(len(self._events) - 1)
        return words

    def copy(self) -> Self:
        """The same tournament, to act on while this one stays as it is: the states are
        immutable and shared, so it costs a copy of two lists, never a replay."""
        twin = type(self).__new__(type(self))
        twin._events, twin._states = list(self._events), list(self._states)
        return twin

    def _keep_first(self, count: int) -> None:
        """Take back every event after the first ``count``."""
        del self._events[count:], self._states[count:]

    def _push(self, event: Event) -> None:
        before = self._states[-1]
        self._states.append(apply(before, event))
        self._events.append(event)
        before.memo.clear()  # only the state in use keeps its standings: an undo works them out again

    @property
    def _state(self) -> TournamentState:
        return self._states[-1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TournamentHistory):
            return NotImplemented
        return self._events == other._events

    __hash__ = None  # type: ignore[assignment]  # a tournament changes as it is run: equal by value, never a key

    def __repr__(self) -> str:
        return f"<Tournament {self.name!r} ({self.event_id}): {len(self._state.players)} players, {len(self._state.rounds)} rounds>"

    @property
    def name(self) -> str:
        return self._state.name

    @property
    def event_id(self) -> str:
        return self._state.event_id

    @property
    def format(self) -> TournamentFormat:
        return self._state.format
