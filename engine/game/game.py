"""One game at one table: actions are checked, logged as events, and state is their replay.

Undo, resume and audit are one mechanism: the state after ``n`` events is a fold of
:func:`~engine.game.state.apply` over them, and every intermediate state is kept so
undo is a pop. Each state shares what grows with the one before, so replaying a log
takes time in proportion to its length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.dice import Dice, format_dice, parse_dice
from engine.errors import IllegalAction, InvalidInput
from engine.events import (
    Banked,
    Built,
    EntrySwitched,
    Event,
    GameStarted,
    Kept,
    PointsBanked,
    PointsFarkled,
    Rolled,
    RolledOff,
    RulesChanged,
    event_from_dict,
    events_to_dicts,
)
from engine.game.points import UNCHECKED, points_step
from engine.game.state import GameState, Notice, Offer, Phase, TurnRecord, apply, bank_refusal, start
from engine.game.undo import undone
from engine.ranking import places_from, ranked_seats
from engine.rules import Rules
from engine.scoring import breakdown, scoring_dice
from engine.words import Words, say, say_n

__all__ = ["Game"]


class Game:
    """A game of Farkle at one table.

    >>> game = Game(["Ann", "Bob"], Rules.preset("house"))
    >>> game.roll("1 2 3 3 3 5"); game.keep("1 3 3 3 5"); game.roll("1"); game.keep("1")
    >>> game.turn_points, game.dice_in_hand
    (550, 6)
    """

    def __init__(
        self, players: Iterable[str], rules: Rules | None = None, first: int = 0, *, points_only: bool = False
    ) -> None:
        if isinstance(players, str):
            raise InvalidInput(say("Players must be a list of names, not the single text {players!r}.", players=players))
        event = GameStarted(tuple(players), rules or Rules.preset("house"), first, points_only or None)
        self._events: list[Event] = [event]
        self._states: list[GameState] = [start(event)]

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> Game:
        """Rebuild a game from its log (as kept by :attr:`events`): resume and audit."""
        items = [event_from_dict(data) for data in events]
        if not items or not isinstance(items[0], GameStarted):
            raise InvalidInput(say("A game log must begin with the start of the game."))
        first = items[0]
        game = cls(first.players, first.rules, first.first, points_only=bool(first.points_only))
        state = game._states[0]
        states = game._states
        for event in items[1:]:
            state = apply(state, event)
            states.append(state)
        game._events = [game._events[0], *items[1:]]
        return game

    # -- actions -----------------------------------------------------------------------

    def roll(self, dice: str | Iterable[int]) -> None:
        """A throw of all the dice in hand, entered as faces."""
        self._push(Rolled(parse_dice(dice)))

    def keep(self, dice: str | Iterable[int]) -> None:
        """Set aside scoring dice from the last throw (again: replaces the selection)."""
        self._push(Kept(parse_dice(dice)))

    def bank(self) -> None:
        self._push(Banked())

    def build(self) -> None:
        """Take the dice and points the previous player left instead of six fresh dice."""
        self._push(Built())

    def bank_points(self, points: int, passed: int | None = None) -> None:
        """Points only: the current player banked ``points`` (the whole bank, built-on points
        included), leaving ``passed`` dice to the next player where the rules pass them."""
        self._push(PointsBanked(points, passed))

    def farkle(self) -> None:
        """Points only: the current player farkled."""
        self._push(PointsFarkled())

    def switch_entry(self, points_only: bool) -> None:
        """Enter turns as points only (True) or die by die (False) from the turn now starting."""
        self._push(EntrySwitched(points_only))

    def set_rules(self, rules: Rules) -> None:
        """New rules from the next turn on (an organizer may switch a final to progressive)."""
        if not isinstance(rules, Rules):
            raise InvalidInput(say("{rules!r} is not a rule set.", rules=rules))
        self._push(RulesChanged(rules))

    def roll_off(self, faces: Mapping[int, int]) -> None:
        """The die each tied player threw; repeated among those still tied."""
        try:
            pairs = tuple(sorted((int(seat), face) for seat, face in faces.items()))
        except (AttributeError, TypeError, ValueError) as error:
            raise InvalidInput(say("A roll-off is a die face for each tied seat, not {faces!r}.", faces=faces)) from error
        self._push(RolledOff(pairs))

    def undo(self) -> Notice:
        """Take back the last action; repeatable back to the start of the game. What it took
        back, to be shown: ``Undone: Bob's bank of 650``."""
        event = self.peek()
        self._events.pop()
        after = self._states.pop()
        return undone(event, self._states[-1], after)

    def peek(self) -> Event:
        """The last event: what an :meth:`undo` takes back and a :meth:`redo` plays again.

        :raises IllegalAction: nothing has been played since the start.
        """
        if len(self._events) == 1:
            raise IllegalAction(say("Nothing to undo: the game has just started."))
        return self._events[-1]

    def copy(self) -> Game:
        """The same game, to act on while this one stays as it is: the states are immutable
        and shared, so it costs a copy of two lists, never a replay.

        >>> game = Game(["Ann", "Bob"]); trial = game.copy(); trial.roll("1 5 2 3 4 6")
        >>> len(game.events), len(trial.events)
        (1, 2)
        """
        twin = type(self).__new__(type(self))
        twin._events, twin._states = list(self._events), list(self._states)
        return twin

    def redo(self, event: Event | Mapping[str, Any]) -> None:
        """Play an event again (as :meth:`peek` gave it, or as logged in :attr:`events`):
        redo after undo, or a log played step by step.

        Refused like the action itself if it no longer fits the game.
        """
        if isinstance(event, Mapping):
            event = event_from_dict(event)
        if isinstance(event, GameStarted):
            raise IllegalAction(say("A game starts only once: its start cannot be played again."))
        self._push(event)

    def _push(self, event: Event) -> None:
        state = apply(self._states[-1], event)
        self._events.append(event)
        self._states.append(state)

    # -- state -------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events(self) -> list[dict[str, Any]]:
        """The whole log as JSON-ready dicts; :meth:`from_events` replays it."""
        return events_to_dicts(self._events)

    @property
    def points_only(self) -> bool:
        return self.state.points_only

    @property
    def unchecked(self) -> str | None:
        """What the engine cannot check in this game, said plainly (None: every throw is checked)."""
        return UNCHECKED if self.state.points_only else None

    @property
    def points_step(self) -> int:
        """The step every bank is a multiple of under the rules of the turn being played."""
        return points_step(self.rules)

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def rules(self) -> Rules:
        """The rules of the turn being played."""
        return self.state.rules

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    @property
    def current(self) -> int:
        return self.state.current

    @property
    def turn_points(self) -> int:
        return self.state.turn_points

    @property
    def dice_in_hand(self) -> int:
        return self.state.dice_in_hand

    @property
    def offer(self) -> Offer | None:
        return self.state.offer

    @property
    def on_board(self) -> tuple[bool, ...]:
        return self.state.on_board

    @property
    def farkle_streak(self) -> tuple[int, ...]:
        return self.state.farkle_streak

    @property
    def final_round(self) -> bool:
        return self.state.final_round

    @property
    def last_turns(self) -> tuple[int, ...]:
        return self.state.last_turns

    @property
    def tied(self) -> tuple[int, ...]:
        return self.state.tied

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def is_over(self) -> bool:
        return self.state.winner is not None

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def notices(self) -> tuple[Notice, ...]:
        """What the last action brought about, to be announced."""
        return self.state.notices

    @property
    def history(self) -> tuple[TurnRecord, ...]:
        return self.state.history.as_tuple()

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats ranked best first: by total, then by roll-off; equal totals keep seat order."""
        return ranked_seats(self.scores, self.state.roll_offs)

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place (1 is first); equal totals not settled by a roll-off share a place."""
        return places_from(self.scores, self.state.roll_offs)

    def roll_off_faces(self, seat: int) -> tuple[int, ...]:
        """The die faces ``seat`` threw in the roll-offs for the win, round by round (empty
        if none): a result names the roll-off that split equal totals."""
        return tuple(dict(round_)[seat] for round_ in self.state.roll_offs if seat in dict(round_))

    def throw_builds_on_offer(self, count: int) -> bool:
        """Whether a throw of ``count`` dice can only mean building on the offer: the offer
        passes that many dice and a fresh throw is of six."""
        offer = self.state.open_offer
        return offer is not None and count == offer.dice != self.state.dice_to_throw

    def set_aside_refusal(self, dice: Iterable[int]) -> Words | None:
        """Why these dice of the last throw cannot be set aside together in any keep (some
        of them score in no option), or None while they may be (a triple being tapped in)."""
        throw = self.state.last_throw
        if throw is None:
            return say("{who} has not thrown yet: enter the throw first.", who=self.players[self.current])
        idle = Counter(dice) - Counter(scoring_dice(throw, self.rules))
        if not idle:
            return None
        faces = tuple(sorted(idle.elements()))
        return say_n("{idle} does not score in {keep}: set aside only dice that score.",
                     "{idle} do not score in {keep}: set aside only dice that score.", len(faces),
                     idle=format_dice(faces), keep=format_dice(throw))

    def bank_refusal(self) -> str | None:
        """Why Bank is not allowed now (shown beside a disabled button), or None."""
        return bank_refusal(self.state)

    def preview_keep(self, dice: str | Iterable[int]) -> GameState:
        """The state a :meth:`keep` would give, without recording it: a live preview.

        Raises the same errors as :meth:`keep`.
        """
        return apply(self.state, Kept(parse_dice(dice)))

    def breakdown(self, keep: Dice) -> str:
        return breakdown(keep, self.rules)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._events == other._events and self.state == other.state

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played: equal by value, never a key
    def __repr__(self) -> str:
        return f"<Game {', '.join(self.players)}: {self.scores} after {len(self._events) - 1} actions>"
